"""Writes the zip fixtures of the Go tests (zip_reader_test.go, zip_writer_test.go).

Run it with the reference's Python package (metatensor-core 0.2) and numpy installed:

    build/reference-venv/bin/python internal/core/testdata/mts/make_fixtures.py

- tensor.mts: a TensorMap saved by the reference (two blocks with a component and a
  gradient, and info);
- block.mts: a TensorBlock saved by the reference, with a gradient whose name is not ASCII
  (the zip writer sets the UTF-8 flag for it);
- deflate.mts: the entries of tensor.mts re-written with DEFLATE by Python's zipfile, some of
  them with forced ZIP64 local headers;
- savez.npz and savez_compressed.npz: numpy's writers (ZIP64 local headers; DEFLATE for the
  second).

The files are small; the Go tests read them and re-write the reference's ones byte for byte.
Every file is deterministic: running the script again gives the same bytes.
"""

import io
import os
import zipfile

import metatensor
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def labels(names, values):
    return metatensor.Labels(names, np.array(values, dtype=np.int32))


def block(seed, n_samples, n_components):
    rng = np.random.default_rng(seed)
    components = [labels(["mu"], [[m] for m in range(n_components)])] if n_components else []
    shape = (n_samples,) + ((n_components,) if n_components else ()) + (2,)
    result = metatensor.TensorBlock(
        values=rng.normal(size=shape),
        samples=labels(["system", "atom"], [[0, i] for i in range(n_samples)]),
        components=components,
        properties=labels(["n"], [[0], [1]]),
    )
    gradient = metatensor.TensorBlock(
        values=rng.normal(size=(2, 3) + shape[1:]),
        samples=labels(["sample", "system", "atom"], [[0, 0, 0], [1, 0, 1]]),
        components=[labels(["xyz"], [[0], [1], [2]])] + components,
        properties=result.properties,
    )
    return result, gradient


def main():
    first, gradient = block(1, 3, 3)
    first.add_gradient("positions", gradient)
    second, gradient = block(2, 2, 3)
    second.add_gradient("positions", gradient)
    tensor = metatensor.TensorMap(labels(["key"], [[0], [1]]), [first, second])
    tensor.set_info("test", "value")
    metatensor.save(os.path.join(HERE, "tensor.mts"), tensor)

    single, gradient = block(3, 2, 1)
    single.add_gradient("é", gradient)
    metatensor.save(os.path.join(HERE, "block.mts"), single)

    with open(os.path.join(HERE, "tensor.mts"), "rb") as file:
        reference = zipfile.ZipFile(io.BytesIO(file.read()))
    with zipfile.ZipFile(os.path.join(HERE, "deflate.mts"), "w", zipfile.ZIP_DEFLATED) as out:
        for i, name in enumerate(reference.namelist()):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with out.open(info, "w", force_zip64=(i % 2 == 1)) as entry:
                entry.write(reference.read(name))

    arrays = {"values": np.arange(12.0).reshape(3, 4), "empty": np.zeros((0, 2))}
    np.savez(os.path.join(HERE, "savez.npz"), **arrays)
    np.savez_compressed(os.path.join(HERE, "savez_compressed.npz"), **arrays)


if __name__ == "__main__":
    main()
