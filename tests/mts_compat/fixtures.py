"""The objects exchanged between the reference library and ours through .mts files.

`build(metatensor)` returns, always the same for the same code, a dictionary from a fixture
name to a Labels, TensorBlock or TensorMap made with the given `metatensor` package (bound to
whichever library mtslib chose). Every array comes from numpy generators seeded with the
fixture's name, so a fixture does not change when others are added.

BUFFER_FIXTURES are also saved through `save_buffer`.
"""

import zlib
from dataclasses import dataclass, field

import numpy as np

DTYPES = {
    "f64": np.float64,
    "f32": np.float32,
    "f16": np.float16,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "bool": np.bool_,
    "c64": np.complex64,
    "c128": np.complex128,
}

# info values exercising JSON escapes: quotes, backslashes, control characters, characters
# that some JSON encoders escape for HTML (<, >, &) and DEL; keys inserted unsorted.
INFO = {
    "zeta": "last key inserted first",
    "quotes": 'a "quoted" value and \'single\' ones',
    "backslash": "C:\\path\\to\\file \\n is not a newline",
    "newline": "line 1\nline 2\r\nline 3",
    "control": "tab\there, bell\x07, backspace\b, form feed\f, unit separator\x1f, del\x7f",
    "html": "<tag attr='x'>&amp;</tag>",
    "slash": "a/b//c",
    "empty": "",
    'key with "quotes" and \\ and\nnewline': "value",
    "": "empty key",
    "alpha": "  leading and trailing spaces  ",
    "json": '{"nested": [1, 2, {"a": null}]}',
}

BUFFER_FIXTURES = [
    "tensor_f64",
    "tensor_info",
    "tensor_nested_gradients",
    "tensor_empty",
    "tensor_large",
    "block_f64",
    "block_zero_samples",
    "labels_simple",
    "labels_zero_entries",
]


@dataclass
class Gradient:
    """How to build one gradient: its parameter, sample count, the components it adds in
    front of its parent's, and its own gradients."""

    parameter: str
    n_samples: int
    components: list = field(default_factory=list)  # [(name, size), ...]
    gradients: list = field(default_factory=list)


def random_values(rng, shape, dtype):
    """Random values of `dtype`, with the extreme or special values of the type first."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        values = rng.standard_normal(shape).astype(dtype)
        specials = [np.nan, np.inf, -np.inf, -0.0, np.finfo(dtype).max, np.finfo(dtype).tiny]
    elif dtype.kind in "iu":
        limits = np.iinfo(dtype)
        values = rng.integers(limits.min, limits.max, size=shape, dtype=dtype, endpoint=True)
        specials = [limits.min, limits.max, 0]
    elif dtype.kind == "b":
        values = rng.integers(0, 2, size=shape).astype(np.bool_)
        specials = [True, False]
    elif dtype.kind == "c":
        values = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        specials = [complex(np.inf, np.nan), complex(-0.0, np.inf), complex(1.5, -0.0)]
    else:
        raise ValueError(f"no generator for {dtype}")
    flat = values.reshape(-1)
    count = min(len(specials), flat.size)
    with np.errstate(invalid="ignore"):  # casting nan and inf to float16 warns
        flat[:count] = np.array(specials[:count]).astype(dtype)
    return values


def labels(mts, names, values):
    return mts.Labels(names, np.asarray(values, dtype=np.int32).reshape(-1, len(names)))


def sample_labels(mts, count):
    return labels(mts, ["system", "atom"], [[i // 4, i % 4] for i in range(count)])


def gradient_sample_labels(mts, n_parent, count):
    """`count` distinct gradient samples referring to the `n_parent` samples of the parent."""
    assert n_parent > 0 or count == 0
    rows = [[i % n_parent, 10 + i // n_parent] for i in range(count)]
    return labels(mts, ["sample", "atom"], rows)


def make_block(mts, rng, dtype, samples, components, properties, gradients=(), strided=False):
    """A block with random values of `dtype` and the described gradients, recursively. With
    `strided`, values are non-contiguous views (Fortran order, or every other element)."""
    shape = (len(samples), *[len(c) for c in components], len(properties))
    if strided and len(shape) % 2 == 0:
        values = np.asfortranarray(random_values(rng, shape, dtype))
    elif strided:
        double = (shape[0] * 2, *shape[1:])
        values = random_values(rng, double, dtype)[::2]
    else:
        values = random_values(rng, shape, dtype)
    block = mts.TensorBlock(values, samples, components, properties)

    for gradient in gradients:
        extra = [mts.Labels.range(name, size) for name, size in gradient.components]
        gradient_block = make_block(
            mts,
            rng,
            dtype,
            gradient_sample_labels(mts, len(samples), gradient.n_samples),
            extra + list(components),
            properties,
            gradient.gradients,
            strided,
        )
        block.add_gradient(gradient.parameter, gradient_block)
    return block


def positions(n_samples, gradients=()):
    return Gradient("positions", n_samples, [("xyz", 3)], list(gradients))


def cell(n_samples, gradients=()):
    return Gradient("cell", n_samples, [("xyz_1", 3), ("xyz_2", 3)], list(gradients))


def strain(n_samples, gradients=()):
    return Gradient("strain", n_samples, [], list(gradients))


def alchemical(n_samples, gradients=()):
    return Gradient("alchemical", n_samples, [("species", 2)], list(gradients))


# a gradient of a gradient of a gradient, one gradient per block
NESTED = [positions(7, [cell(4, [alchemical(3)])])]
# several gradients per block, at two depths, inserted unsorted; "X_field" sorts before
# "cell" byte-wise (as the reference writes them), after it ignoring case
SEVERAL = [positions(6, [strain(3), cell(2)]), strain(4), cell(3), Gradient("X_field", 2)]


@dataclass
class BlockSpec:
    """One block: sample count, components [(name, size)], property count, gradients."""

    n_samples: int = 5
    components: list = field(default_factory=lambda: [("o3_mu", 3)])
    n_properties: int = 4
    gradients: list = field(default_factory=lambda: [positions(8)])
    strided: bool = False


def build_block(mts, rng, dtype, spec):
    return make_block(
        mts,
        rng,
        dtype,
        sample_labels(mts, spec.n_samples),
        [mts.Labels.range(name, size) for name, size in spec.components],
        labels(mts, ["n"], [[2 * i + 1] for i in range(spec.n_properties)]),
        spec.gradients,
        spec.strided,
    )


def build_tensor(mts, rng, dtype, specs, info=None):
    rows = [[1 + i, 6 - i] for i in range(len(specs))]
    keys = labels(mts, ["center_type", "neighbor_type"], rows)
    blocks = [build_block(mts, rng, dtype, spec) for spec in specs]
    tensor = mts.TensorMap(keys, blocks)
    for key, value in (info or {}).items():
        tensor.set_info(key, value)
    return tensor


def _rng(name):
    return np.random.default_rng(zlib.crc32(name.encode("utf8")))


def _tensors():
    """(name, dtype, block specs, info) of every TensorMap."""
    for name, dtype in DTYPES.items():
        yield f"tensor_{name}", dtype, [BlockSpec(5), BlockSpec(3, n_properties=2)], None

    f64 = np.float64
    two = [("o3_mu", 3), ("spin", 2)]
    yield "tensor_components_0", f64, [BlockSpec(5, []), BlockSpec(2, [])], None
    yield "tensor_components_2", f64, [BlockSpec(4, two), BlockSpec(3, two)], None
    yield "tensor_no_gradients", f64, [BlockSpec(gradients=[]), BlockSpec(2, gradients=[])], None
    nested = [BlockSpec(5, gradients=NESTED), BlockSpec(2, gradients=NESTED)]
    yield "tensor_nested_gradients", f64, nested, None
    several = [BlockSpec(5, gradients=SEVERAL), BlockSpec(3, gradients=SEVERAL)]
    yield "tensor_several_gradients", f64, several, None
    yield "tensor_info", f64, [BlockSpec(3), BlockSpec(2)], INFO
    zero_samples = [
        BlockSpec(0, gradients=[positions(0)]),
        BlockSpec(4),
        BlockSpec(0, n_properties=0, gradients=[positions(0)]),
    ]
    yield "tensor_zero_samples", np.int32, zero_samples, None
    zero_properties = [BlockSpec(5, n_properties=0), BlockSpec(2, n_properties=0)]
    yield "tensor_zero_properties", np.float32, zero_properties, None
    yield "tensor_empty", f64, [], None
    yield "tensor_empty_info", f64, [], {"only": "info", "a": "b"}
    single = [BlockSpec(1, [], 1, [strain(1)])]
    yield "tensor_single_block", np.complex128, single, {"name": "single"}
    strided = [BlockSpec(5, strided=True), BlockSpec(4, [("o3_mu", 5)], 3, strided=True)]
    yield "tensor_strided", f64, strided, None
    # about 1 MB: the buffer grows many times while saving
    large = [BlockSpec(20, [("o3_mu", 5)], 8, [positions(40)]) for _ in range(20)]
    yield "tensor_large", f64, large, {"size": "large"}


def _blocks():
    """(name, dtype, block spec) of every TensorBlock."""
    for name, dtype in DTYPES.items():
        yield f"block_{name}", dtype, BlockSpec(4)

    f64 = np.float64
    two = [("o3_mu", 3), ("spin", 2)]
    yield "block_components_0", f64, BlockSpec(3, [])
    yield "block_components_2", np.int64, BlockSpec(3, two)
    yield "block_no_gradients", f64, BlockSpec(gradients=[])
    yield "block_nested_gradients", f64, BlockSpec(4, gradients=NESTED)
    yield "block_several_gradients", np.float32, BlockSpec(4, gradients=SEVERAL)
    yield "block_zero_samples", f64, BlockSpec(0, gradients=[positions(0)])
    yield "block_zero_properties", np.uint8, BlockSpec(3, n_properties=0)
    both = BlockSpec(0, n_properties=0, gradients=[positions(0)])
    yield "block_zero_samples_zero_properties", f64, both
    yield "block_strided", np.int16, BlockSpec(6, two, strided=True)


def _labels(mts):
    """(name, Labels) of every Labels."""
    yield "labels_simple", labels(mts, ["system", "atom"], [[0, 1], [0, 2], [1, 0], [3, 7], [2, 2]])
    yield "labels_zero_entries", labels(mts, ["a", "b", "c"], np.zeros((0, 3)))
    yield "labels_single", mts.Labels.single()
    low, high = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    extremes = [[low, high], [-1, 0], [0, -1], [high, low]]
    yield "labels_extremes", labels(mts, ["x", "y"], extremes)
    rng = _rng("labels_many")
    many = np.unique(rng.integers(-1000, 1000, size=(12000, 3)), axis=0)[:10000]
    yield "labels_many", labels(mts, ["i", "j", "k"], rng.permutation(many))
    # more than 65535 bytes of header: written as NPY version 2.0
    wide = [f"dimension_{i:04}" for i in range(4000)]
    yield "labels_wide", labels(mts, wide, np.arange(8000).reshape(2, 4000))


def build(mts):
    """Every fixture, by name."""
    fixtures = {}
    for name, dtype, specs, info in _tensors():
        fixtures[name] = build_tensor(mts, _rng(name), dtype, specs, info)
    for name, dtype, spec in _blocks():
        fixtures[name] = build_block(mts, _rng(name), dtype, spec)
    for name, value in _labels(mts):
        fixtures[name] = value
    return fixtures


def kind(mts, obj):
    if isinstance(obj, mts.TensorMap):
        return "tensor"
    if isinstance(obj, mts.TensorBlock):
        return "block"
    return "labels"

