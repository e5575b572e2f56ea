"""Loads every .mts file of DIR through the loaded library (see mtslib.py) and compares it
with the fixture of the same name, rebuilt in this process.

usage: check.py DIR [--all] [--messages FILE]

A file is named <fixture>.mts or <fixture>.buffer.mts. Each is
  - loaded through the path API (metatensor.load, load_block, load_labels) and through the
    buffer API (metatensor.io.load_buffer, load_block_buffer, load_labels_buffer), and both
    results compared with the fixture: names and values of every labels, values dtype, shape
    and exact bytes, gradients recursively, info (in sorted order, as the file stores it);
  - opened with numpy alone: np.load gives the npz archive of a TensorMap or TensorBlock
    (exactly the expected entries: keys, blocks/<i>/values, ..., info.json) or the structured
    array of Labels, with the same content;
  - loaded with the two loaders of the other kinds, which must fail with a MetatensorError.
    With --messages, their messages (DIR written as <dir>) go to FILE, one per line, to be
    compared between libraries.
With --all, every fixture (and every buffer fixture) must have its file in DIR.

Prints one PASS or FAIL line per file and a summary; exits with 1 on any difference.
"""

import argparse
import json
import os
import sys

import numpy as np

import mtslib

metatensor, library = mtslib.import_metatensor()

import fixtures  # noqa: E402

LOADERS = {
    "tensor": (metatensor.load, metatensor.io.load_buffer),
    "block": (metatensor.load_block, metatensor.io.load_block_buffer),
    "labels": (metatensor.load_labels, metatensor.io.load_labels_buffer),
}

# labels_wide has a header of more than 100 kB, above numpy's default limit
MAX_HEADER_SIZE = 10**7


class Mismatch(Exception):
    pass


def expect(condition, where, message):
    if not condition:
        raise Mismatch(f"{where.strip()}: {message}")


# ------------------------------------------------------------------ metatensor objects


def compare_labels(where, actual, expected):
    expect(actual.names == expected.names, where, f"names {actual.names} != {expected.names}")
    values = np.asarray(actual.values)
    wanted = np.asarray(expected.values)
    expect(values.dtype == np.int32, where, f"values dtype {values.dtype}")
    expect(values.shape == wanted.shape, where, f"shape {values.shape} != {wanted.shape}")
    expect(np.array_equal(values, wanted), where, "values differ")


def compare_array(where, actual, expected):
    expect(isinstance(actual, np.ndarray), where, f"not a numpy array: {type(actual)}")
    expect(actual.dtype == expected.dtype, where, f"dtype {actual.dtype} != {expected.dtype}")
    expect(actual.shape == expected.shape, where, f"shape {actual.shape} != {expected.shape}")
    actual_bytes = np.ascontiguousarray(actual).tobytes()
    expected_bytes = np.ascontiguousarray(expected).tobytes()
    if actual_bytes != expected_bytes:
        size = actual.dtype.itemsize
        differ = [
            i for i in range(actual.size)
            if actual_bytes[i * size:(i + 1) * size] != expected_bytes[i * size:(i + 1) * size]
        ]
        first = differ[0]
        raise Mismatch(
            f"{where}: {len(differ)} elements differ, first at flat index {first}: "
            f"{actual.reshape(-1)[first]!r} != {expected.reshape(-1)[first]!r}"
        )


def compare_block(where, actual, expected):
    compare_array(f"{where}values", actual.values, expected.values)
    compare_labels(f"{where}samples", actual.samples, expected.samples)
    expect(len(actual.components) == len(expected.components), where,
           f"{len(actual.components)} components != {len(expected.components)}")
    for i, (component, wanted) in enumerate(zip(actual.components, expected.components)):
        compare_labels(f"{where}components/{i}", component, wanted)
    compare_labels(f"{where}properties", actual.properties, expected.properties)

    parameters = sorted(actual.gradients_list())
    wanted = sorted(expected.gradients_list())
    expect(parameters == wanted, where, f"gradients {parameters} != {wanted}")
    for parameter in parameters:
        compare_block(f"{where}gradients/{parameter}/", actual.gradient(parameter),
                      expected.gradient(parameter))


def compare_tensor(where, actual, expected):
    compare_labels(f"{where}keys", actual.keys, expected.keys)
    expect(len(actual) == len(expected), where, f"{len(actual)} blocks != {len(expected)}")
    for i in range(len(expected)):
        compare_block(f"{where}blocks/{i}/", actual.block_by_id(i), expected.block_by_id(i))
    # info.json is written with sorted keys, and read back in file order
    info = list(actual.info().items())
    wanted = sorted(expected.info().items())
    expect(info == wanted, f"{where}info", f"{info} != {wanted}")


COMPARE = {"tensor": compare_tensor, "block": compare_block, "labels": compare_labels}


# ------------------------------------------------------------------ numpy alone


def block_entries(prefix, block, is_gradient):
    """(entry name, expected content) of a block in an npz archive, gradients included."""
    yield f"{prefix}values", block.values
    yield f"{prefix}samples", block.samples
    for i, component in enumerate(block.components):
        yield f"{prefix}components/{i}", component
    if not is_gradient:
        yield f"{prefix}properties", block.properties
    for parameter in block.gradients_list():
        yield from block_entries(f"{prefix}gradients/{parameter}/", block.gradient(parameter), True)


def tensor_entries(tensor):
    yield "keys", tensor.keys
    for i in range(len(tensor)):
        yield from block_entries(f"blocks/{i}/", tensor.block_by_id(i), False)
    # TensorMap.info() gives None for an empty value
    info = {key: value or "" for key, value in tensor.info().items()}
    if info:
        # what the reference writes: sorted keys, 2 spaces of indentation, only control
        # characters, quotes and backslashes escaped (DEL is written as is)
        text = json.dumps(dict(sorted(info.items())), indent=2, ensure_ascii=False)
        yield "info.json", text.encode("utf8")


def compare_npy_labels(where, array, expected):
    names = tuple(expected.names)
    expect(array.dtype.names == names, where, f"fields {array.dtype.names} != {names}")
    for name in names:
        expect(array.dtype[name] == np.dtype("<i4"), where, f"field {name}: {array.dtype[name]}")
    expect(array.shape == (len(expected),), where, f"shape {array.shape} != ({len(expected)},)")
    values = np.stack([array[name] for name in names], axis=1).reshape(-1, len(names))
    expect(np.array_equal(values, np.asarray(expected.values)), where, "values differ")


def check_with_numpy(path, kind, fixture):
    if kind == "labels":
        compare_npy_labels("[np.load]", np.load(path, max_header_size=MAX_HEADER_SIZE), fixture)
        return

    if kind == "tensor":
        expected = dict(tensor_entries(fixture))
    else:
        expected = dict(block_entries("", fixture, False))

    with np.load(path, max_header_size=MAX_HEADER_SIZE) as archive:
        names = set(archive.files)
        missing, extra = sorted(set(expected) - names), sorted(names - set(expected))
        expect(not missing and not extra, "[np.load]", f"entries: missing {missing}, extra {extra}")
        for name, wanted in expected.items():
            where = f"[np.load] {name}"
            content = archive[name]
            if isinstance(wanted, bytes):
                expect(content == wanted, where, f"{content!r} != {wanted!r}")
            elif isinstance(wanted, np.ndarray):
                compare_array(where, content, wanted)
            else:
                compare_npy_labels(where, content, wanted)


# ------------------------------------------------------------------ driver


def wrong_kind_messages(directory, path, data, kind):
    """Loads the file with the loaders of the other kinds, which must all fail."""
    messages = []
    for other, (load_path, load_buffer) in LOADERS.items():
        if other == kind:
            continue
        for api, load, argument in (("path", load_path, path), ("buffer", load_buffer, data)):
            where = f"{load.__name__}({api})"
            try:
                load(argument)
            except metatensor.MetatensorError as error:
                message = str(error).replace(directory, "<dir>")
                messages.append(f"{os.path.basename(path)} {where}: {message}")
            else:
                raise Mismatch(f"{where} loaded a {kind} file without error")
    return messages


def check_file(directory, path, kind, fixture):
    with open(path, "rb") as file:
        data = file.read()
    load_path, load_buffer = LOADERS[kind]
    COMPARE[kind]("[path] ", load_path(path), fixture)
    COMPARE[kind]("[buffer] ", load_buffer(data), fixture)
    check_with_numpy(path, kind, fixture)
    return wrong_kind_messages(directory, path, data, kind)


def fixture_name(filename):
    for suffix in (".buffer.mts", ".mts"):
        if filename.endswith(suffix):
            return filename[: -len(suffix)]
    return None


def main():
    parser = argparse.ArgumentParser(description="see the module documentation")
    parser.add_argument("directory")
    parser.add_argument("--all", action="store_true", help="every fixture must have its file")
    parser.add_argument("--messages", help="where to write the wrong-kind error messages")
    args = parser.parse_args()
    directory = os.path.abspath(args.directory)

    objects = fixtures.build(metatensor)
    files = sorted(name for name in os.listdir(directory) if name.endswith(".mts"))
    failures = 0
    messages = []

    if args.all:
        expected = [f"{name}.mts" for name in objects]
        expected += [f"{name}.buffer.mts" for name in fixtures.BUFFER_FIXTURES]
        for missing in sorted(set(expected) - set(files)):
            print(f"FAIL {missing}: missing")
            failures += 1

    passed = 0
    for filename in files:
        name = fixture_name(filename)
        if name not in objects:
            print(f"FAIL {filename}: no fixture named {name!r}")
            failures += 1
            continue
        kind = fixtures.kind(metatensor, objects[name])
        path = os.path.join(directory, filename)
        try:
            messages += check_file(directory, path, kind, objects[name])
        except Exception as error:  # noqa: BLE001, one file must not stop the others
            print(f"FAIL {filename} ({kind}): {type(error).__name__}: {error}")
            failures += 1
        else:
            print(f"PASS {filename} ({kind}: path and buffer loads, numpy, wrong-kind loads)")
            passed += 1

    if args.messages is not None:
        with open(args.messages, "w") as file:
            file.writelines(f"{message}\n" for message in messages)

    print(f"check {directory} with the {library}: {len(files)} files, {passed} passed, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
