"""Compares metatensor_go's reductions over samples with metatensor-operations 0.5 on random
tensor maps (components, gradients, unsorted samples), and max/min, propagating or ignoring
NaN, with a numpy model.

usage: METATENSOR_GO_LIBRARY=build/lib/libmetatensor.so PYTHONPATH=python python compare_operations.py
Prints one line per case family and "N cases, N failed"; exits non-zero on a failure.
"""

import sys

import numpy as np

import metatensor_go  # first: it loads metatensor-go's library ahead of the package's

import metatensor  # noqa: E402
import metatensor.operations as operations  # noqa: E402
from metatensor import Labels, TensorBlock, TensorMap  # noqa: E402

FAILED = []
CASES = 0


def random_tensor(rng, dtype):
    """Two blocks of samples (structure, atom, spin) in random order, one component, a
    positions gradient with an xyz component."""
    blocks = []
    for _ in range(2):
        rows = {tuple(r) for r in rng.integers(0, [5, 6, 2], size=(rng.integers(1, 40), 3))}
        samples = np.array(sorted(rows), dtype=np.int32)
        rng.shuffle(samples)
        n = len(samples)
        component = Labels.range("c", 2)
        properties = Labels.range("p", 3)
        values = rng.normal(size=(n, 2, 3))
        if dtype != np.float64:
            values = np.round(values * 10)
        block = TensorBlock(values.astype(dtype), Labels(["structure", "atom", "spin"], samples), [component], properties)
        grad_rows = [(s, samples[s][0], a) for s in range(n) for a in range(3) if rng.random() < 0.5]
        rng.shuffle(grad_rows)
        grad_samples = np.array(grad_rows, dtype=np.int32).reshape(-1, 3)
        grad_values = rng.normal(size=(len(grad_samples), 3, 2, 3))
        if dtype != np.float64:
            grad_values = np.round(grad_values * 10)
        block.add_gradient(
            "positions",
            TensorBlock(grad_values.astype(dtype), Labels(["sample", "structure", "atom"], grad_samples),
                        [Labels.range("xyz", 3), component], properties),
        )
        blocks.append(block)
    return TensorMap(Labels.range("key", 2), blocks)


def same(a, b, exact):
    if a.shape != b.shape:
        return False
    if exact:
        return np.array_equal(a, b, equal_nan=True)
    return np.allclose(a, b, rtol=1e-12, atol=1e-300, equal_nan=True)


def difference(ours, want):
    """Where two blocks differ most, for the failure message."""
    for what, a, b in [("values", ours, want), ("gradient", ours.gradient("positions"), want.gradient("positions"))]:
        x, y = np.asarray(a.values), np.asarray(b.values)
        if a.samples != b.samples or x.shape != y.shape:
            return f"{what}: different samples or shapes"
        d = np.abs(x - y)
        if d.size and np.nanmax(d) > 0:
            i = np.unravel_index(np.nanargmax(d), d.shape)
            return f"{what}[{i}]: ours {x[i]!r}, operations {y[i]!r}"
    return "NaN placement"


def check(name, ours, want, exact):
    global CASES
    CASES += 1
    for b in range(len(want)):
        o, w = ours.block_by_id(b), want.block_by_id(b)
        ok = o.samples == w.samples and same(np.asarray(o.values), np.asarray(w.values), exact)
        for parameter, wg in w.gradients():
            og = o.gradient(parameter)
            ok = ok and og.samples == wg.samples and same(np.asarray(og.values), np.asarray(wg.values), exact)
        if not ok:
            FAILED.append(f"{name}, block {b}: {difference(o, w)}")
            return


def model_extreme(block, keep, pick, ignore_nan):
    """max or min per group, the first extreme winning, NaN propagating (the first NaN is
    selected) or, with ignore_nan, skipped (a group of NaN selects its first sample);
    gradients of the selected sample."""
    samples = block.samples.values
    keys = samples[:, keep]
    new, index = np.unique(keys, axis=0, return_inverse=True)
    index = index.reshape(-1)
    values = np.asarray(block.values)
    out = np.empty((len(new),) + values.shape[1:], dtype=values.dtype)
    selected = np.empty(out.shape, dtype=np.int64)
    for g in range(len(new)):
        members = np.flatnonzero(index == g)
        for e in np.ndindex(values.shape[1:]):
            column = values[(members,) + e]
            nan = np.flatnonzero(column != column)
            numbers = np.flatnonzero(column == column)
            if ignore_nan and len(numbers):
                best = column[numbers]
                k = numbers[np.argmax(best) if pick == "max" else np.argmin(best)]
            elif len(nan):
                k = nan[0]
            else:
                k = np.argmax(column) if pick == "max" else np.argmin(column)
            out[(g,) + e] = column[k]
            selected[(g,) + e] = members[k]
    return new, out, selected, index


def check_extreme(tensor, pick, ignore_nan=False):
    global CASES
    CASES += 1
    reduced = getattr(metatensor_go, f"{pick}_over_samples")(tensor, ["atom"], ignore_nan=ignore_nan)
    for b, block in enumerate(tensor.blocks()):
        new, values, selected, index = model_extreme(block, [0, 2], pick, ignore_nan)
        got = reduced.block_by_id(b)
        ok = np.array_equal(got.samples.values, new) and same(np.asarray(got.values), values, True)
        gradient = block.gradient("positions")
        grad_rows = gradient.samples.values.copy()
        old = grad_rows[:, 0].copy()
        grad_rows[:, 0] = index[old]
        new_rows, grad_index = np.unique(grad_rows, axis=0, return_inverse=True)
        grad_index = grad_index.reshape(-1)
        gv = np.asarray(gradient.values)
        want = np.zeros((len(new_rows),) + gv.shape[1:], dtype=gv.dtype)
        for i in range(len(gv)):
            mask = selected[index[old[i]]] == old[i]
            want[grad_index[i]] += np.where(mask[None], gv[i], 0)
        got_gradient = got.gradient("positions")
        ok = ok and np.array_equal(got_gradient.samples.values, new_rows)
        ok = ok and same(np.asarray(got_gradient.values), want, True)
        if not ok:
            FAILED.append(f"{pick} of block {b}{' ignoring NaN' if ignore_nan else ''}")
            return


def main():
    rng = np.random.default_rng(21)
    for trial in range(40):
        tensor = random_tensor(rng, np.float64)
        for reduction in ("sum", "mean", "var", "std"):
            ours = getattr(metatensor_go, f"{reduction}_over_samples")(tensor, "atom")
            want = getattr(operations, f"{reduction}_over_samples")(tensor, "atom")
            check(f"{reduction} of trial {trial}", ours, want, exact=False)
            ours = getattr(metatensor_go, f"{reduction}_over_samples")(tensor, ["atom", "spin"])
            want = getattr(operations, f"{reduction}_over_samples")(tensor, ["atom", "spin"])
            check(f"{reduction} over [atom, spin] of trial {trial}", ours, want, exact=False)
        block = tensor.block_by_id(0)
        ours = metatensor_go.sum_over_samples_block(block, "atom")
        want = operations.sum_over_samples_block(block, "atom")
        check(f"block sum of trial {trial}", TensorMap(Labels.range("key", 1), [ours]),
              TensorMap(Labels.range("key", 1), [want]), exact=False)
        for pick in ("max", "min"):
            check_extreme(tensor, pick)
        with_nan = random_tensor(rng, np.float64)
        for block in with_nan.blocks():
            values = np.asarray(block.values)
            values[rng.random(values.shape) < 0.1] = np.nan
            values[:, 0, 0] = np.nan  # groups of NaN only
        for pick in ("max", "min"):
            check_extreme(with_nan, pick)
            check_extreme(with_nan, pick, ignore_nan=True)
        for dtype in (np.int32, np.int64):
            tensor = random_tensor(rng, dtype)
            check(f"{dtype.__name__} sum of trial {trial}", metatensor_go.sum_over_samples(tensor, "atom"),
                  operations.sum_over_samples(tensor, "atom"), exact=True)
            check_extreme(tensor, "max")
    print(f"metatensor {metatensor.__version__}, metatensor-operations {operations.__version__}")
    for failure in FAILED[:20]:
        print("FAILED:", failure)
    print(f"{CASES} cases, {len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
