package rust

import (
	"strings"
	"testing"

	"github.com/metatensor-go/metatensor/gen/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclarationsOfTheReference pins declarations whose spelling the reference's
// metatensor-sys 0.2.4 fixes: code written against it must compile on ours.
func TestDeclarationsOfTheReference(t *testing.T) {
	api, err := spec.Load("../../spec/api.yaml")
	require.NoError(t, err)
	m, err := spec.LoadMapping("../../spec/bindings", api, Target)
	require.NoError(t, err)
	out, err := Generate(api, m)
	require.NoError(t, err)
	code := string(out)
	for _, want := range []string{
		"pub type mts_status_t = i32;",
		"pub const MTS_CALLBACK_ERROR: mts_status_t = 254;",
		"pub type mts_data_origin_t = u64;",
		"use dlpk::sys::{DLDataType, DLDevice, DLManagedTensorVersioned, DLPackVersion};",
		"    pub fn mts_disable_panic_printing();",
		"    #[must_use]\n    pub fn mts_last_error(message: *mut *const std::os::raw::c_char, origin: *mut *const std::os::raw::c_char, data: *mut *mut std::os::raw::c_void) -> mts_status_t;",
		"data_deleter: Option<unsafe extern \"C\" fn(data: *mut std::os::raw::c_void)>",
		"pub fn mts_labels_union(first: *const mts_labels_t, second: *const mts_labels_t, result: *mut *const mts_labels_t, first_mapping: *mut i64",
		"pub fn mts_block(data: mts_array_t, samples: *const mts_labels_t, components: *const *const mts_labels_t, components_count: usize, properties: *const mts_labels_t) -> *mut mts_block_t;",
		"pub fn mts_tensormap(keys: *const mts_labels_t, blocks: *mut *mut mts_block_t, blocks_count: usize) -> *mut mts_tensormap_t;",
		"pub fn mts_tensormap_save_buffer(buffer: *mut *mut u8, buffer_count: *mut usize, realloc_user_data: *mut std::os::raw::c_void, realloc: mts_realloc_buffer_t, tensor: *const mts_tensormap_t) -> mts_status_t;",
		"pub as_dlpack: Option<unsafe extern \"C\" fn(array: *mut std::os::raw::c_void, dl_managed_tensor: *mut *mut DLManagedTensorVersioned, device: DLDevice, stream: *const i64, max_version: DLPackVersion) -> mts_status_t>,",
		"pub type mts_realloc_buffer_t = Option<unsafe extern \"C\" fn(user_data: *mut std::os::raw::c_void, ptr: *mut u8, new_size: usize) -> *mut u8>;",
		// the layouts of the reference's own checks
		"assert!(std::mem::size_of::<mts_data_movement_t>() == 40);",
		"assert!(std::mem::offset_of!(mts_data_movement_t, properties_length) == 32);",
		"assert!(std::mem::size_of::<mts_array_t>() == 104);",
		"assert!(std::mem::offset_of!(mts_array_t, move_data) == 96);",
	} {
		assert.Contains(t, code, want)
	}
	assert.NotContains(t, code, "pub struct DLDevice", "the DLPack items come from dlpk")
}

func TestMustUseRules(t *testing.T) {
	yes, no := true, false
	status := &spec.Function{Returns: spec.Return{Convention: "status"}}
	void := &spec.Function{Returns: spec.Return{Convention: "void"}}
	e := &Entry{}
	assert.Empty(t, check(status, e))
	assert.True(t, *e.MustUse, "a status is must_use by default")
	e = &Entry{}
	assert.Empty(t, check(void, e))
	assert.False(t, *e.MustUse)
	assert.Empty(t, check(status, &Entry{MustUse: &no}))
	problems := check(void, &Entry{MustUse: &yes})
	require.Len(t, problems, 1)
	assert.True(t, strings.Contains(problems[0], "must_use"))
}

// TestCheckedConventions pins the body each return convention gets in the safe crate's
// call layer, and that only the functions with users get a checked call.
func TestCheckedConventions(t *testing.T) {
	api, err := spec.Load("../testdata/fixture.yaml")
	require.NoError(t, err)
	m, err := spec.LoadMapping("../testdata/bindings", api, Target)
	require.NoError(t, err)
	out := string(Checked(api, m))
	for _, want := range []string{
		"pub(crate) unsafe fn fix_version() -> Result<*const std::os::raw::c_char, Error> {\n" +
			"    // SAFETY: the caller keeps the contract of mts_fix_version, which is this function's own\n" +
			"    Ok(unsafe { mts_fix_version() })\n}",
		"    check_status(unsafe { mts_fix_set(data, deleter) })\n}",
		"    let result = unsafe { mts_thing(names, names_count, array) };\n    check_ptr(result)?;\n    Ok(result)\n}",
		"/// Used by Thing::new, Thing::clone.\n",
		// the inline deleter is spelled in place: only its parameter's type is imported
		"use dlpk::sys::FixOwner;\n",
	} {
		assert.Contains(t, out, want)
	}
	for _, absent := range []string{"fn thing_free", "fn box_save", "FixOwnerDeleter"} {
		assert.NotContains(t, out, absent)
	}
}

func TestUsersMustBeNamed(t *testing.T) {
	status := &spec.Function{Returns: spec.Return{Convention: "status"}}
	problems := check(status, &Entry{Users: []string{"Labels::new", " "}})
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "empty name")
}
