"""Writes stand-ins for the reference repository's metatensor-core/tests/{data,block,keys}.mts,
which the serialization tests of the reference's metatensor crate read and the published crate
does not ship. They are written by the reference's own Python package (metatensor-core), with
the names and shapes those tests check, so the tests show that our library loads the
reference's files and saves them back byte for byte.

    python make_data.py <directory>
"""

import os
import sys

import metatensor
import numpy as np


def labels(names, values):
    return metatensor.Labels(names, np.array(values, dtype=np.int32).reshape(len(values), len(names)))


def block(rng, o3_lambda, gradient_samples):
    """A block of 9 samples and 3 properties, with o3_mu components and positions gradients."""
    mu = labels(["o3_mu"], [[m] for m in range(-o3_lambda, o3_lambda + 1)])
    properties = labels(["n"], [[n] for n in range(3)])
    result = metatensor.TensorBlock(
        values=rng.normal(size=(9, len(mu), 3)),
        samples=labels(["system", "atom"], [[s // 3, s % 3] for s in range(9)]),
        components=[mu],
        properties=properties,
    )
    rows = [[s, s // 3, a] for s in range(9) for a in range(7)][:gradient_samples]
    gradient = metatensor.TensorBlock(
        values=rng.normal(size=(len(rows), 3, len(mu), 3)),
        samples=labels(["sample", "system", "atom"], rows),
        components=[labels(["xyz"], [[0], [1], [2]]), mu],
        properties=properties,
    )
    result.add_gradient("positions", gradient)
    return result


def main(directory):
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(20)
    types = [1, 6, 8]
    entries = [[l, 1, c, n] for l in range(3) for c in types for n in types]
    keys = labels(["o3_lambda", "o3_sigma", "center_type", "neighbor_type"], entries)
    # every block has 27 gradient samples: 3 per sample
    blocks = [block(rng, entry[0], 27) for entry in entries]
    metatensor.save(os.path.join(directory, "data.mts"), metatensor.TensorMap(keys, blocks))
    metatensor.save(os.path.join(directory, "block.mts"), block(rng, 2, 59))
    metatensor.save(os.path.join(directory, "keys.mts"), keys)


if __name__ == "__main__":
    main(sys.argv[1])
