"""Versions of the libraries in the run, read without importing them (JAX is slow to import)."""

from importlib import metadata

PEER_DISTRIBUTIONS = ("autograd", "torch", "jax", "jaxlib", "tangent-ad")


def library_versions() -> dict[str, str]:
    import sourcegrad

    versions = {"sourcegrad": f"{sourcegrad.__version__} (this checkout)"}
    for name in PEER_DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions
