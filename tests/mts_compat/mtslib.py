"""Chooses which libmetatensor.so the reference's `metatensor` package uses.

Import this module before `metatensor`. Without MTS_LIBRARY, the package loads the library
it ships (the reference). With MTS_LIBRARY=/path/to/libmetatensor.so, that library is loaded
first, globally; the package then finds a library named libmetatensor.so already loaded in
the process (`metatensor._c_lib._already_loaded`) and uses it instead of its own.

`import_metatensor()` imports the package and verifies that it really uses the library it
should: the handle the package holds is the handle of the chosen library, and exactly one
libmetatensor.so file is mapped in the process, the chosen one.
"""

import ctypes
import os


def _mapped_libmetatensor():
    """Real paths of every libmetatensor.so file mapped in this process."""
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and os.path.basename(fields[5].strip()) == "libmetatensor.so":
                paths.add(os.path.realpath(fields[5].strip()))
    return paths


def import_metatensor():
    """Imports and returns the `metatensor` package, bound to the chosen library, and a
    short description of that library."""
    chosen = os.environ.get("MTS_LIBRARY")
    preloaded = None
    if chosen:
        chosen = os.path.realpath(chosen)
        if not os.path.isfile(chosen):
            raise SystemExit(f"MTS_LIBRARY={chosen}: no such file")
        preloaded = ctypes.CDLL(chosen, mode=ctypes.RTLD_GLOBAL)

    import metatensor
    import metatensor._c_lib

    lib = metatensor._c_lib._get_library()
    if chosen:
        expected = chosen
        if lib._handle != preloaded._handle:
            raise SystemExit(
                f"metatensor does not use MTS_LIBRARY={chosen}: its handle is not ours"
            )
    else:
        expected = os.path.realpath(metatensor._c_lib._lib_path())

    mapped = _mapped_libmetatensor()
    if mapped != {expected}:
        raise SystemExit(
            f"expected exactly {expected} to be mapped, found {sorted(mapped)}"
        )

    version = lib.mts_version().decode("utf8")
    if chosen:
        return metatensor, f"MTS_LIBRARY {expected} ({version})"
    return metatensor, f"reference library {expected} ({version})"
