"""Writes the NPY fixtures of the Go tests with the reference implementation.

Run it with the reference's Python package (metatensor-core) and numpy installed:

    build/reference-venv/bin/python internal/core/testdata/npy/make_fixtures.py

Data arrays can only be saved inside a block, so each one is the values.npy entry of a
saved block. Labels are saved as bare NPY files. The element values follow formulas that
npy_array_test.go repeats, so the Go tests can rebuild every array.
"""

import hashlib
import io
import os
import zipfile

import metatensor
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

DTYPES = {
    "f2": np.float16,
    "f4": np.float32,
    "f8": np.float64,
    "i1": np.int8,
    "i2": np.int16,
    "i4": np.int32,
    "i8": np.int64,
    "u1": np.uint8,
    "u2": np.uint16,
    "u4": np.uint32,
    "u8": np.uint64,
    "b1": np.bool_,
    "c8": np.complex64,
    "c16": np.complex128,
}

# Every dtype in a 2-D array; f8 in more shapes, with a zero-length axis.
SHAPES = {name: [(2, 3)] for name in DTYPES}
SHAPES["f8"] += [(3, 1, 2), (2, 2, 1, 3), (0, 3), (2, 4, 0)]


def elements(name, count):
    """The values of element 0..count-1, in row-major order (see npyTestValues in Go)."""
    i = np.arange(count)
    kind = name[0]
    if kind == "f":
        values = (i - 2) * 0.5
    elif kind == "i":
        values = i - 2
    elif kind == "u":
        values = i * 3
    elif kind == "b":
        values = i % 3 == 1
    else:
        values = (i - 2) * 0.5 + 1j * i
    return values.astype(DTYPES[name])


def block_values_npy(values):
    """Saves a block holding values and gives the bytes of its values.npy entry."""
    samples = metatensor.Labels.range("s", values.shape[0])
    components = [
        metatensor.Labels.range(f"c{axis}", size)
        for axis, size in enumerate(values.shape[1:-1])
    ]
    properties = metatensor.Labels.range("p", values.shape[-1])
    block = metatensor.TensorBlock(values, samples, components, properties)
    buffer = bytes(metatensor.io.save_buffer(block))
    with zipfile.ZipFile(io.BytesIO(buffer)) as archive:
        return archive.read("values.npy")


def labels_npy(names, values):
    labels = metatensor.Labels(names, np.array(values, dtype=np.int32))
    return bytes(metatensor.io.save_buffer(labels))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(data)


def main():
    for name, shapes in SHAPES.items():
        for shape in shapes:
            values = elements(name, int(np.prod(shape))).reshape(shape)
            suffix = "x".join(str(d) for d in shape)
            write(f"values_{name}_{suffix}.npy", block_values_npy(values))

    # A transposed (non-contiguous) array is written in row-major order.
    transposed = elements("f8", 6).reshape(3, 2).T
    write("values_f8_2x3_transposed.npy", block_values_npy(transposed))

    write("labels_ab.npy", labels_npy(["a", "b"], [[1, 2], [3, -4], [5, 6]]))
    write("labels_no_entries.npy", labels_npy(["x"], np.zeros((0, 1))))
    write("labels_no_names.npy", labels_npy([], np.zeros((0, 0))))

    # A header over 65535 bytes switches to version 2.0; the file is too large to keep, so
    # only its size and hash are: see TestNpyLabelsVersion2WhenLong in Go.
    names = [f"dimension_{i:05}" for i in range(5000)]
    data = labels_npy(names, np.zeros((1, len(names))))
    assert data[6:8] == b"\x02\x00"
    write("labels_5000_names.sha256", f"{hashlib.sha256(data).hexdigest()} {len(data)}\n".encode())


if __name__ == "__main__":
    main()
