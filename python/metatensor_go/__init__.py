"""Reductions over samples computed by metatensor-go's libmetatensor.so, for the
``TensorMap`` and ``TensorBlock`` of metatensor's Python package running on that library.

The functions take and return the package's own objects, with the signatures of
metatensor-operations (``sum_over_samples(tensor, sample_names)``, ``sample_names`` a string
or a list), so that swapping the import is all a user changes. They call the library's
``mtsx_`` extensions, which only metatensor-go's library has: the package must run on it.
Set ``METATENSOR_GO_LIBRARY`` to its path before importing this module (which then loads it
ahead of the package's own library), or load it with ``ctypes.CDLL(path, ctypes.RTLD_GLOBAL)``
before the package first uses its library.

Where the results differ from metatensor-operations: removing every sample dimension is an
error, and f32 data stays f32 (operations' numpy division by the counts makes f64).
``max_over_samples`` and ``min_over_samples`` (which operations does not have) propagate NaN
as numpy's ``max`` does; with ``ignore_nan=True`` they skip it as ``nanmax`` does (a group of
NaN only giving NaN, without a warning).

The results' arrays are numpy arrays over the library's memory (no copy): the library writes
the next results of the same size over that memory once they are freed.
"""

import ctypes
import os

if os.environ.get("METATENSOR_GO_LIBRARY"):
    # loaded globally first, the package finds it already loaded and uses it
    ctypes.CDLL(os.environ["METATENSOR_GO_LIBRARY"], mode=ctypes.RTLD_GLOBAL)

import metatensor  # noqa: E402
from metatensor._c_api import c_uintptr_t, mts_block_t, mts_tensormap_t  # noqa: E402
from metatensor._c_lib import _get_library  # noqa: E402
from metatensor._status import check_pointer  # noqa: E402

__all__ = [
    f"{name}_over_samples{suffix}"
    for name in ("sum", "mean", "var", "std", "max", "min")
    for suffix in ("", "_block")
]


def _library():
    """The package's library, with the prototypes of the extensions set."""
    lib = _get_library()
    if not hasattr(lib, "mtsx_tensormap_reduce_over_samples"):
        raise ImportError(
            "metatensor runs on a library without metatensor-go's extensions: set "
            "METATENSOR_GO_LIBRARY to metatensor-go's libmetatensor.so"
        )
    names = [ctypes.POINTER(ctypes.c_char_p), c_uintptr_t, ctypes.c_char_p, ctypes.c_bool]
    lib.mtsx_tensormap_reduce_over_samples.argtypes = [ctypes.POINTER(mts_tensormap_t)] + names
    lib.mtsx_tensormap_reduce_over_samples.restype = ctypes.POINTER(mts_tensormap_t)
    lib.mtsx_block_reduce_over_samples.argtypes = [ctypes.POINTER(mts_block_t)] + names
    lib.mtsx_block_reduce_over_samples.restype = ctypes.POINTER(mts_block_t)
    return lib


def _names(sample_names):
    if isinstance(sample_names, str):
        sample_names = [sample_names]
    array = (ctypes.c_char_p * len(sample_names))()
    for i, name in enumerate(sample_names):
        array[i] = name.encode("utf8")
    return array


def _reduce(kind, obj, sample_names, reduction, ignore_nan=False):
    """Calls mtsx_<kind>_reduce_over_samples, kind being "tensormap" or "block"."""
    names = _names(sample_names)
    function = getattr(_library(), f"mtsx_{kind}_reduce_over_samples")
    ptr = function(obj._ptr, names, len(names), reduction.encode("utf8"), bool(ignore_nan))
    check_pointer(ptr)
    result = metatensor.TensorMap if kind == "tensormap" else metatensor.TensorBlock
    return result.unsafe_from_ptr(ptr)


def _define(reduction):
    def over_tensor(tensor, sample_names):
        return _reduce("tensormap", tensor, sample_names, reduction)

    def over_block(block, sample_names):
        return _reduce("block", block, sample_names, reduction)

    return _named(reduction, over_tensor, over_block, "")


def _define_extreme(reduction):
    def over_tensor(tensor, sample_names, *, ignore_nan=False):
        return _reduce("tensormap", tensor, sample_names, reduction, ignore_nan)

    def over_block(block, sample_names, *, ignore_nan=False):
        return _reduce("block", block, sample_names, reduction, ignore_nan)

    return _named(reduction, over_tensor, over_block, (
        " NaN propagates (the gradient of an element being that of its first NaN), unless "
        "``ignore_nan`` is set: NaN is then skipped, a group of NaN only giving NaN."
    ))


def _named(reduction, over_tensor, over_block, more):
    over_tensor.__name__ = f"{reduction}_over_samples"
    over_tensor.__doc__ = (
        f"The {reduction} of every block of ``tensor`` over the sample dimensions "
        "``sample_names`` (a string or a list), gradients included." + more
    )
    over_block.__name__ = f"{reduction}_over_samples_block"
    over_block.__doc__ = f"The {reduction} of ``block`` over the sample dimensions ``sample_names``." + more
    return over_tensor, over_block


sum_over_samples, sum_over_samples_block = _define("sum")
mean_over_samples, mean_over_samples_block = _define("mean")
var_over_samples, var_over_samples_block = _define("var")
std_over_samples, std_over_samples_block = _define("std")
max_over_samples, max_over_samples_block = _define_extreme("max")
min_over_samples, min_over_samples_block = _define_extreme("min")
