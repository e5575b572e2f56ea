package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// declarations gives the names a Go package declares, outside of its tests: functions,
// constants, variables and types by their name, methods as Type.Method.
func declarations(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	declared := map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range file.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				declared[receiverPrefix(decl)+decl.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, name := range s.Names {
							declared[name.Name] = true
						}
					case *ast.TypeSpec:
						declared[s.Name.Name] = true
					}
				}
			}
		}
	}
	require.NotEmpty(t, declared)
	return declared
}

// receiverPrefix gives "Type." for a method, "" for a function.
func receiverPrefix(decl *ast.FuncDecl) string {
	if decl.Recv == nil || len(decl.Recv.List) == 0 {
		return ""
	}
	typ := decl.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if ident, ok := typ.(*ast.Ident); ok {
		return ident.Name + "."
	}
	return "?."
}

// missingCounterparts lists the functions of the spec whose Go counterpart is not declared,
// and those that have no Go name at all.
func missingCounterparts(functions []*spec.Function, declared map[string]bool) []string {
	var missing []string
	for _, f := range functions {
		name, err := Counterpart(f)
		switch {
		case err != nil:
			missing = append(missing, err.Error())
		case name != "" && !declared[name]:
			missing = append(missing, f.Name+": "+name+" is not declared")
		}
	}
	return missing
}

// TestEveryFunctionHasAGoCounterpart fails when a function of spec/api.yaml that is not
// c_only has no counterpart in bindings/go.
func TestEveryFunctionHasAGoCounterpart(t *testing.T) {
	api, err := spec.Load("../../spec/api.yaml")
	require.NoError(t, err)
	declared := declarations(t, "../../bindings/go")
	assert.Empty(t, missingCounterparts(api.Functions, declared),
		"give these functions a Go counterpart in bindings/go, or mark them c_only in spec/api.yaml")

	cOnly := 0
	for _, f := range api.Functions {
		if f.COnly {
			cOnly++
		}
	}
	assert.Equal(t, 3, cOnly, "the C-only functions: last error records and panic printing")
}

func TestMissingCounterpartsAreReported(t *testing.T) {
	functions := []*spec.Function{
		{Name: "mts_labels_position"},
		{Name: "mts_labels_frobnicate"},
		{Name: "mts_last_error", COnly: true},
		{Name: "mts_something_else"},
	}
	missing := missingCounterparts(functions, map[string]bool{"Labels.Position": true})
	assert.Equal(t, []string{
		"mts_labels_frobnicate: Labels.Frobnicate is not declared",
		"golang: no Go name for mts_something_else: name it in gen/golang/names.go, or mark it c_only in the spec",
	}, missing)
}

func TestCounterpartNames(t *testing.T) {
	for function, want := range map[string]string{
		"mts_labels":                    "NewLabels",
		"mts_labels_position":           "Labels.Position",
		"mts_labels_free":               "Labels.Close",
		"mts_labels_load":               "LoadLabels",
		"mts_labels_save_buffer":        "Labels.SaveBuffer",
		"mts_block_dtype":               "TensorBlock.DType",
		"mts_block_add_gradient":        "TensorBlock.AddGradient",
		"mts_block_load_buffer":         "LoadBlockBuffer",
		"mts_tensormap_keys_to_samples": "TensorMap.KeysToSamples",
		"mts_tensormap_load":            "LoadTensorMap",
		"mts_tensormap_block_by_id":     "TensorMap.Block",
		"mts_tensormap_info_keys":       "TensorMap.InfoKeys",
		"mts_get_data_origin":           "OriginName",
	} {
		name, err := Counterpart(&spec.Function{Name: function})
		require.NoError(t, err)
		assert.Equal(t, want, name, function)
	}

	name, err := Counterpart(&spec.Function{Name: "mts_set_last_error", COnly: true})
	require.NoError(t, err)
	assert.Empty(t, name)
	_, err = Counterpart(&spec.Function{Name: "mts_labels", COnly: true})
	assert.ErrorContains(t, err, "mts_labels is c_only, but has the Go name NewLabels")
}

func TestGenerateRejectsFunctionsOutsideThePatterns(t *testing.T) {
	api, err := spec.Load("../testdata/fixture.yaml")
	require.NoError(t, err)
	_, err = Generate(api)
	require.NoError(t, err)

	api.Functions = append(api.Functions,
		&spec.Function{Name: "mts_labels_load", Params: []*spec.Param{{Name: "fd", Type: "int32"}}},
		&spec.Function{Name: "mts_block_load_buffer", Params: []*spec.Param{
			{Name: "buffer", Type: "array<uint8>"}, {Name: "flags", Type: "uint32"}, {Name: "more", Type: "uint32"},
		}},
	)
	_, err = Generate(api)
	assert.ErrorContains(t, err, "mts_labels_load does not take a string first")
	assert.ErrorContains(t, err, "mts_block_load_buffer takes parameters the Go pattern does not know")
}
