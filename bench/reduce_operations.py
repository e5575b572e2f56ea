"""Times metatensor_go's reductions over samples against metatensor-operations, both on the
same numpy-backed tensor map of the reference's Python package running on our library.

usage: METATENSOR_GO_LIBRARY=build/lib/libmetatensor.so PYTHONPATH=python \
           python bench/reduce_operations.py [--quick] [--structures N,N...] [--rounds N] [--out FILE]

The tensor maps: N structures (10, 100 and 1,000 by default, the last one the acceptance's
size) of 10 to 100 atoms (drawn at random, seed 21), every atom in one of 4 blocks (keys
"center" = 0..3, drawn at random), samples (structure, atom), one component "c" of 3 and 128
properties "p", f64 values; a "positions" gradient with one row per sample, with respect to
the atom's own position (samples (sample, structure, atom), components xyz and c). Every
reduction removes "atom", leaving one sample per structure. --quick takes 50 structures and
1 round: a smoke test.

Each reduction of each library is called once untimed (first calls, and the memory they
grow), then each round times one call of each library for each reduction, the library going
first alternating from round to round (on a shared machine, speed drifts over seconds: both
sides then run under the same conditions); the result of a call is freed inside its timing,
as a training loop frees it. A row gives the median over the rounds and operations' median
over ours. max and min have no counterpart in operations: only ours is timed. Prints a table,
and writes FILE (tab-separated: structures, atoms, reduction, ours_ns, operations_ns, ratio)
when --out is given.
"""

import argparse
import statistics
import sys
import time

import numpy as np

import metatensor_go  # first: it loads metatensor-go's library ahead of the package's

import metatensor  # noqa: E402
import metatensor.operations as operations  # noqa: E402
from metatensor import Labels, TensorBlock, TensorMap  # noqa: E402
from metatensor._c_lib import _get_library  # noqa: E402

BLOCKS = 4
COMPONENTS = 3
PROPERTIES = 128
COMPARED = ("sum", "mean", "var", "std")
OURS_ONLY = ("max", "min")


def benchmark_tensor(structures):
    rng = np.random.default_rng(21)
    atoms = rng.integers(10, 101, size=structures)
    structure = np.repeat(np.arange(structures, dtype=np.int32), atoms)
    # the position of every atom in its structure: a running count restarting at each one
    starts = np.repeat(np.cumsum(atoms) - atoms, atoms)
    atom = (np.arange(len(structure)) - starts).astype(np.int32)
    center = rng.integers(0, BLOCKS, size=len(structure))

    component = Labels.range("c", COMPONENTS)
    xyz = Labels.range("xyz", 3)
    properties = Labels.range("p", PROPERTIES)
    blocks = []
    for key in range(BLOCKS):
        mine = center == key
        samples = np.column_stack([structure[mine], atom[mine]])
        n = len(samples)
        block = TensorBlock(rng.random((n, COMPONENTS, PROPERTIES)), Labels(["structure", "atom"], samples),
                            [component], properties)
        gradient_samples = np.column_stack([np.arange(n, dtype=np.int32), samples])
        block.add_gradient(
            "positions",
            TensorBlock(rng.random((n, 3, COMPONENTS, PROPERTIES)),
                        Labels(["sample", "structure", "atom"], gradient_samples), [xyz, component], properties),
        )
        blocks.append(block)
    return TensorMap(Labels.range("center", BLOCKS), blocks), len(structure)


def timed(function, tensor):
    """Nanoseconds of one call, the result freed inside the timing."""
    start = time.perf_counter_ns()
    result = function(tensor, "atom")
    del result
    return time.perf_counter_ns() - start


def format_time(ns):
    if ns is None:
        return "-"
    for unit, size in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= size:
            return f"{ns / size:.3g} {unit}"
    return f"{ns:.0f} ns"


def measure(structures, rounds):
    """The times of every reduction on the tensor of that many structures: (atoms, rows), a row
    being (reduction, ours_ns, operations_ns or None)."""
    tensor, atoms = benchmark_tensor(structures)
    ours = {name: [] for name in COMPARED + OURS_ONLY}
    theirs = {name: [] for name in COMPARED}
    sides_of = {name: [(ours, metatensor_go)] + ([(theirs, operations)] if name in theirs else [])
                for name in ours}
    for name, sides in sides_of.items():  # warm-up: first calls, and the memory they grow
        for _, module in sides:
            timed(getattr(module, f"{name}_over_samples"), tensor)
    for round_ in range(rounds):
        for name, sides in sides_of.items():
            for times, module in (sides if round_ % 2 == 0 else sides[::-1]):
                times[name].append(timed(getattr(module, f"{name}_over_samples"), tensor))
        print(f"{structures} structures: round {round_ + 1} of {rounds} done", file=sys.stderr)
    rows = [(name, statistics.median(ours[name]), statistics.median(theirs[name]) if name in theirs else None)
            for name in ours]
    return atoms, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="50 structures, 1 round")
    parser.add_argument("--structures", default="10,100,1000",
                        help="the sizes swept, numbers of structures (default 10,100,1000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of alternating calls (default 5)")
    parser.add_argument("--out", help="where to write the tab-separated results")
    args = parser.parse_args()
    sizes = [50] if args.quick else [int(n) for n in args.structures.split(",")]
    rounds = 1 if args.quick else args.rounds

    print(f"metatensor {metatensor.__version__} on {_get_library()._name}, "
          f"metatensor-operations {operations.__version__}")
    print(f"structures of 10 to 100 atoms in {BLOCKS} blocks of (samples, {COMPONENTS}, {PROPERTIES}) f64, "
          f"positions gradients; over 'atom'; after one warm-up call, the median of {rounds} alternating "
          "rounds, results freed inside the timing")
    print()
    print(f"{'structures':>10} | {'atoms':>6} | {'reduction':9} | {'metatensor_go':>13} | {'operations':>12} | "
          f"{'operations/ours':>15}")
    print(f"{'-' * 10}-|-{'-' * 6}-|-{'-' * 9}-|-{'-' * 13}-|-{'-' * 12}-|-{'-' * 15}")
    results = []
    for structures in sizes:
        atoms, rows = measure(structures, rounds)
        for name, mine, other in rows:
            ratio = None if other is None else other / mine
            results.append((structures, atoms, name, mine, other, ratio))
            print(f"{structures:>10} | {atoms:>6} | {name:9} | {format_time(mine):>13} | {format_time(other):>12} | "
                  f"{'-' if ratio is None else f'{ratio:.1f}x':>15}", flush=True)
    if args.out:
        with open(args.out, "w") as out:
            print("structures\tatoms\treduction\tours_ns\toperations_ns\tratio", file=out)
            for structures, atoms, name, mine, other, ratio in results:
                print(f"{structures}\t{atoms}\t{name}\t{mine:.0f}\t{'-' if other is None else f'{other:.0f}'}\t"
                      f"{'-' if ratio is None else f'{ratio:.2f}'}", file=out)
        print(f"\nresults: {args.out}")


if __name__ == "__main__":
    main()
