//go:build refbench

package refbench

/*
#cgo CFLAGS: -I${SRCDIR}/../../../c/include
#cgo LDFLAGS: -ldl

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <metatensor.h>

// The functions of the reference library this package calls, found with dlsym.
static const mts_labels_t *(*ref_labels)(const char *const *, uintptr_t, mts_array_t);
static const mts_labels_t *(*ref_labels_assume_unique)(const char *const *, uintptr_t, mts_array_t);
static mts_status_t (*ref_labels_position)(const mts_labels_t *, const int32_t *, uintptr_t, int64_t *);
static mts_status_t (*ref_labels_free)(const mts_labels_t *);
static mts_status_t (*ref_last_error)(const char **, const char **, void **);

static void *ref_symbol(void *library, const char *name, const char **missing) {
	void *symbol = dlsym(library, name);
	if (symbol == NULL && *missing == NULL) {
		*missing = name;
	}
	return symbol;
}

// ref_open loads the library; it gives NULL, or what went wrong.
static const char *ref_open(const char *path) {
	void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (library == NULL) {
		return dlerror();
	}
	const char *missing = NULL;
	ref_labels = ref_symbol(library, "mts_labels", &missing);
	ref_labels_assume_unique = ref_symbol(library, "mts_labels_assume_unique", &missing);
	ref_labels_position = ref_symbol(library, "mts_labels_position", &missing);
	ref_labels_free = ref_symbol(library, "mts_labels_free", &missing);
	ref_last_error = ref_symbol(library, "mts_last_error", &missing);
	return missing;
}

static const char *ref_error(void) {
	const char *message = NULL;
	if (ref_last_error(&message, NULL, NULL) != MTS_SUCCESS || message == NULL) {
		return "unknown error";
	}
	return message;
}

// An i32 array of shape (count, size) over values that the caller keeps alive: the
// mts_array_t handed to the reference, with the members it calls on labels values.
struct values_array {
	int32_t *values;
	uintptr_t shape[2];
};

struct values_export {
	DLManagedTensorVersioned tensor; // first, so that the deleter finds the rest
	int64_t shape[2];
};

static mts_status_t values_origin(const void *array, mts_data_origin_t *origin) {
	*origin = 0;
	return MTS_SUCCESS;
}

static mts_status_t values_device(const void *array, DLDevice *device) {
	device->device_type = kDLCPU;
	device->device_id = 0;
	return MTS_SUCCESS;
}

static mts_status_t values_dtype(const void *array, DLDataType *dtype) {
	dtype->code = kDLInt;
	dtype->bits = 32;
	dtype->lanes = 1;
	return MTS_SUCCESS;
}

static mts_status_t values_shape(const void *array, const uintptr_t **shape, uintptr_t *count) {
	*shape = ((const struct values_array *)array)->shape;
	*count = 2;
	return MTS_SUCCESS;
}

static void values_export_delete(DLManagedTensorVersioned *tensor) {
	free(tensor);
}

static mts_status_t values_as_dlpack(void *array, DLManagedTensorVersioned **result, DLDevice device,
                                     const int64_t *stream, DLPackVersion max_version) {
	const struct values_array *values = array;
	if (device.device_type != kDLCPU || stream != NULL || max_version.major < 1) {
		return MTS_CALLBACK_ERROR;
	}
	struct values_export *export = calloc(1, sizeof *export);
	if (export == NULL) {
		return MTS_CALLBACK_ERROR;
	}
	export->shape[0] = (int64_t)values->shape[0];
	export->shape[1] = (int64_t)values->shape[1];
	DLManagedTensorVersioned *tensor = &export->tensor;
	tensor->version.major = 1;
	tensor->version.minor = 0;
	tensor->manager_ctx = export;
	tensor->deleter = values_export_delete;
	tensor->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
	tensor->dl_tensor.data = values->values;
	tensor->dl_tensor.device.device_type = kDLCPU;
	tensor->dl_tensor.ndim = 2;
	tensor->dl_tensor.dtype.code = kDLInt;
	tensor->dl_tensor.dtype.bits = 32;
	tensor->dl_tensor.dtype.lanes = 1;
	tensor->dl_tensor.shape = export->shape;
	*result = tensor;
	return MTS_SUCCESS;
}

static void values_destroy(void *array) {
	free(array);
}

static mts_status_t values_unsupported(void) {
	return MTS_CALLBACK_ERROR;
}

static const char *const NAMES[] = {"a", "b", "c"};

// ref_create makes labels with the names a, b, c over count rows of values.
static const mts_labels_t *ref_create(int32_t *values, uintptr_t count, int check_unique) {
	struct values_array *array = malloc(sizeof *array);
	array->values = values;
	array->shape[0] = count;
	array->shape[1] = 3;
	mts_array_t mts = {
		.ptr = array,
		.destroy = values_destroy,
		.origin = values_origin,
		.device = values_device,
		.dtype = values_dtype,
		.as_dlpack = values_as_dlpack,
		.from_dlpack = (void *)values_unsupported,
		.shape = values_shape,
		.reshape = (void *)values_unsupported,
		.swap_axes = (void *)values_unsupported,
		.create = (void *)values_unsupported,
		.copy = (void *)values_unsupported,
		.move_data = (void *)values_unsupported,
	};
	return check_unique ? ref_labels(NAMES, 3, mts) : ref_labels_assume_unique(NAMES, 3, mts);
}

static void ref_free(const mts_labels_t *labels) {
	ref_labels_free(labels);
}

static mts_status_t ref_position(const mts_labels_t *labels, const int32_t *row, uintptr_t count, int64_t *position) {
	return ref_labels_position(labels, row, count, position);
}

// ref_positions looks up n rows of 3 values in a loop, and gives the sum of the positions
// (-1 on failure).
static int64_t ref_positions(const mts_labels_t *labels, const int32_t *rows, uintptr_t n) {
	int64_t sum = 0;
	for (uintptr_t i = 0; i < n; i++) {
		int64_t position = -1;
		if (ref_labels_position(labels, rows + 3 * i, 3, &position) != MTS_SUCCESS) {
			return -1;
		}
		sum += position;
	}
	return sum;
}
*/
import "C"

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"unsafe"
)

// libraryPath is where the reference library is: MTS_REFERENCE_LIBRARY, or the copy
// `make reference` installs.
func libraryPath() string {
	if path := os.Getenv("MTS_REFERENCE_LIBRARY"); path != "" {
		return path
	}
	return filepath.Join("..", "..", "..", "..", "build", "reference", "lib", "libmetatensor.so")
}

// Open loads the reference library, once.
var Open = sync.OnceValue(func() error {
	path := C.CString(libraryPath())
	defer C.free(unsafe.Pointer(path))
	if problem := C.ref_open(path); problem != nil {
		return errors.New("can not load the reference library " + libraryPath() + ": " + C.GoString(problem))
	}
	return nil
})

// Values are labels values in C memory, as the reference reads them.
type Values struct {
	data  *C.int32_t
	count int
}

// NewValues copies rows of 3 values into C memory.
func NewValues(values []int32) *Values {
	data := (*C.int32_t)(C.malloc(C.size_t(len(values)) * 4))
	copy(unsafe.Slice((*int32)(unsafe.Pointer(data)), len(values)), values)
	return &Values{data: data, count: len(values) / 3}
}

// Free releases the memory; no labels may use it any more.
func (v *Values) Free() { C.free(unsafe.Pointer(v.data)) }

// Labels are labels of the reference.
type Labels struct{ labels *C.mts_labels_t }

// NewLabels makes reference labels with the dimensions a, b, c over values, which must
// outlive them.
func NewLabels(values *Values, checkUnique bool) (Labels, error) {
	unique := C.int(0)
	if checkUnique {
		unique = 1
	}
	labels := C.ref_create(values.data, C.uintptr_t(values.count), unique)
	if labels == nil {
		return Labels{}, errors.New(C.GoString(C.ref_error()))
	}
	return Labels{labels}, nil
}

// Free releases the labels.
func (l Labels) Free() { C.ref_free(l.labels) }

// Position looks up one row with one call of the C API.
func (l Labels) Position(row []int32) (int, error) {
	var position C.int64_t
	status := C.ref_position(l.labels, (*C.int32_t)(unsafe.Pointer(&row[0])), C.uintptr_t(len(row)), &position)
	if status != C.MTS_SUCCESS {
		return -1, errors.New(C.GoString(C.ref_error()))
	}
	return int(position), nil
}

// Positions looks up the first n rows of rows in a loop in C, and gives the sum of the
// positions.
func (l Labels) Positions(rows *Values, n int) int64 {
	return int64(C.ref_positions(l.labels, rows.data, C.uintptr_t(min(n, rows.count))))
}
