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
func missingCounterparts(functions []*spec.Function, m *Mapping, declared map[string]bool) []string {
	var missing []string
	for _, f := range functions {
		name, err := Counterpart(f, m.Entry(f.Name))
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
// excluded in spec/bindings/go.yaml has no counterpart in bindings/go.
func TestEveryFunctionHasAGoCounterpart(t *testing.T) {
	api, m := loadSpec(t)
	declared := declarations(t, "../../bindings/go")
	assert.Empty(t, missingCounterparts(api.Functions, m, declared),
		"give these functions a Go counterpart in bindings/go, or exclude them in spec/bindings/go.yaml")

	cOnly := len(m.Excluded)
	assert.Equal(t, 3, cOnly, "the C-only functions: last error records and panic printing")
}

func TestMissingCounterpartsAreReported(t *testing.T) {
	functions := []*spec.Function{
		{Name: "mts_labels_position"},
		{Name: "mts_labels_frobnicate"},
		{Name: "mts_last_error"},
		{Name: "mts_something_else"},
	}
	m := &Mapping{
		Functions: map[string]*Entry{"mts_labels_position": {}, "mts_labels_frobnicate": {}, "mts_something_else": {}},
		Excluded:  map[string]string{"mts_last_error": "C only."},
	}
	missing := missingCounterparts(functions, m, map[string]bool{"Labels.Position": true})
	assert.Equal(t, []string{
		"mts_labels_frobnicate: Labels.Frobnicate is not declared",
		"golang: no Go name for mts_something_else: give it a name in spec/bindings/go.yaml, or exclude it there",
	}, missing)
}

func TestCounterpartNames(t *testing.T) {
	api, m := loadSpec(t)
	names := map[string]string{}
	for _, f := range api.Functions {
		name, err := Counterpart(f, m.Entry(f.Name))
		require.NoError(t, err)
		names[f.Name] = name
	}
	for function, want := range map[string]string{
		"mts_version":                   "Version",
		"mts_labels":                    "NewLabelsFromArray",
		"mts_labels_position":           "Labels.Position",
		"mts_labels_free":               "Labels.Close",
		"mts_labels_load":               "LoadLabels",
		"mts_labels_save_buffer":        "Labels.SaveBuffer",
		"mts_block_dtype":               "TensorBlock.DType",
		"mts_block_add_gradient":        "TensorBlock.AddGradient",
		"mts_block_load_buffer":         "LoadBlockBuffer",
		"mts_tensormap_keys_to_samples": "TensorMap.KeysToSamplesFill",
		"mts_tensormap_load":            "LoadTensorMap",
		"mts_tensormap_block_by_id":     "TensorMap.Block",
		"mts_tensormap_info_keys":       "TensorMap.InfoKeys",
		"mts_get_data_origin":           "OriginName",
		"mts_set_last_error":            "",
	} {
		assert.Equal(t, want, names[function], function)
	}
}

// loadSpec loads spec/api.yaml and its Go mapping.
func loadSpec(t *testing.T) (*spec.API, *Mapping) {
	t.Helper()
	api, err := spec.Load("../../spec/api.yaml")
	require.NoError(t, err)
	m, err := spec.LoadMapping("../../spec/bindings", api, Target)
	require.NoError(t, err)
	return api, m
}

// addFunction adds a function to the spec and its entry to the mapping, as entries written
// in YAML would be.
func addFunction(t *testing.T, api *spec.API, m *Mapping, f *spec.Function, e Entry) {
	t.Helper()
	for _, p := range f.Params {
		var err error
		p.T, err = spec.ParseType(p.Type)
		require.NoError(t, err)
		if p.T.Kind == spec.KindObject {
			for _, o := range api.Objects {
				if o.Name == p.T.Name {
					p.T.Object = o
				}
			}
		}
	}
	api.Functions = append(api.Functions, f)
	m.Functions[f.Name] = &e
}

// TestNewSpecEntriesShowUpInGo adds a function to the spec and finds its Go counterpart,
// signature and body, in the output: nothing is written by hand for it.
func TestNewSpecEntriesShowUpInGo(t *testing.T) {
	api, m := loadSpec(t)
	addFunction(t, api, m, &spec.Function{
		Name:    "mts_block_gradient_count",
		Returns: spec.Return{Convention: "status"},
		Params: []*spec.Param{
			{Name: "block", Type: "object.block"},
			{Name: "count", Type: "usize", Direction: "out"},
		},
	}, Entry{Call: "len(block.Gradients())", Infallible: true})
	addFunction(t, api, m, &spec.Function{
		Name:    "mts_labels_position_or",
		Returns: spec.Return{Convention: "status"},
		Params: []*spec.Param{
			{Name: "labels", Type: "object.labels"},
			{Name: "values", Type: "array<int32>"},
			{Name: "fallback", Type: "usize"},
			{Name: "result", Type: "int64", Direction: "out"},
		},
	}, Entry{Call: "labels.Position(values)"})
	out, err := Generate(api, m, "../../internal/core")
	require.NoError(t, err)
	source := string(out)
	assert.Contains(t, source, "func (b *TensorBlock) GradientCount() (count int) {")
	assert.Contains(t, source, "count = len(blockCore.Gradients())")
	assert.Contains(t, source, "func (l *Labels) PositionOr(values []int32, fallback int) (result int, err error) {")
	assert.Contains(t, source, "if fallback < 0 {")
}

// TestGenerateNamesTheFunctionsItCanNotMap checks that a spec the core or the Go types can
// not serve fails with the function's name and the reason.
func TestGenerateNamesTheFunctionsItCanNotMap(t *testing.T) {
	for _, tc := range []struct {
		function *spec.Function
		entry    Entry
		message  string
	}{
		{&spec.Function{Name: "mts_labels_frobnicate", Returns: spec.Return{Convention: "status"},
			Params: []*spec.Param{{Name: "labels", Type: "object.labels"}}}, Entry{},
			`mts_labels_frobnicate: the core call "labels.Frobnicate()": labels.Frobnicate undefined`},
		{&spec.Function{Name: "mts_labels_names_twice", Returns: spec.Return{Convention: "status"},
			Params: []*spec.Param{{Name: "labels", Type: "object.labels"},
				{Name: "a", Type: "array<string>", Direction: "out"}, {Name: "b", Type: "array<string>", Direction: "out"}}},
			Entry{Call: "labels.Names()"},
			`the core call "labels.Names()" gives 1 results, the Go counterpart needs 2`},
		{&spec.Function{Name: "mts_labels_count_as_labels", Returns: spec.Return{Convention: "object", Type: "object.labels"},
			Params: []*spec.Param{{Name: "labels", Type: "object.labels"}}},
			Entry{Call: "labels.Count()"},
			`the result result of the core call "labels.Count()" is a int, which does not make a object.labels`},
		{&spec.Function{Name: "mts_labels_weird", Returns: spec.Return{Convention: "status"},
			Params: []*spec.Param{{Name: "labels", Type: "object.labels"}, {Name: "x", Type: "uint16"}}}, Entry{},
			`mts_labels_weird: no core type for the parameter x (uint16)`},
		{&spec.Function{Name: "mts_somewhere", Returns: spec.Return{Convention: "status"}}, Entry{},
			`no Go name for mts_somewhere`},
	} {
		api, m := loadSpec(t)
		if tc.function.Returns.Type != "" {
			var err error
			tc.function.Returns.T, err = spec.ParseType(tc.function.Returns.Type)
			require.NoError(t, err)
		}
		addFunction(t, api, m, tc.function, tc.entry)
		_, err := Generate(api, m, "../../internal/core")
		assert.ErrorContains(t, err, tc.message, tc.function.Name)
	}
}
