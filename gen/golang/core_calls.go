package golang

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/metatensor-go/metatensor/gen/spec"
)

// The core expression of each Go counterpart is type-checked against the source of
// internal/core, so that the generator knows what it gives (the types of its results, and
// whether it can fail) and a spec that names something the core does not have fails here,
// naming the function, instead of in the compiler.

// CoreResult is what a core expression gives.
type CoreResult struct {
	Types  []types.Type // the results, without a final error
	Errors bool         // the last result is an error
}

// corePackage caches the parsed source of internal/core: type-checking it needs the
// standard library from source, which takes a moment.
var corePackage = struct {
	sync.Mutex
	dir   string
	fset  *token.FileSet
	files []*ast.File
}{}

func parseCore(dir string) (*token.FileSet, []*ast.File, error) {
	corePackage.Lock()
	defer corePackage.Unlock()
	if corePackage.dir == dir {
		return corePackage.fset, corePackage.files, nil
	}
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	var files []*ast.File
	for _, path := range paths {
		// the files this platform builds (build constraints, _amd64 and the like), tests aside
		match, err := build.Default.MatchFile(dir, filepath.Base(path))
		if err != nil {
			return nil, nil, err
		}
		if !match || strings.HasSuffix(path, "_test.go") {
			continue
		}
		source, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		file, err := parser.ParseFile(fset, path, source, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		if file.Name.Name == "core" {
			files = append(files, file)
		}
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("golang: no Go source of package core in %s", dir)
	}
	corePackage.dir, corePackage.fset, corePackage.files = dir, fset, files
	return fset, files, nil
}

// CallSite is a core expression to type-check: Params are the names and core types (in the
// source of package core) of the values it may use; Function names it in errors.
type CallSite struct {
	Function string
	Call     string
	Params   [][2]string
}

// checkCoreCalls type-checks the core expression of every function, inside a function of
// package core whose parameters are the core values of the function's inputs.
func checkCoreCalls(coreDir string, functions []*goFunction) (map[*goFunction]CoreResult, error) {
	sites := make([]CallSite, len(functions))
	for i, f := range functions {
		inputs := f.params
		if f.recvParam != nil {
			inputs = append([]*spec.Param{f.recvParam}, inputs...)
		}
		sites[i] = CallSite{Function: f.spec.Name, Call: f.call}
		for _, p := range inputs {
			_, typ, err := inputType(p)
			if err != nil {
				return nil, fmt.Errorf("golang: %s: no core type for the parameter %s (%s)", f.spec.Name, p.Name, p.Type)
			}
			sites[i].Params = append(sites[i].Params, [2]string{p.Name, typ})
		}
	}
	checked, err := CheckCalls(coreDir, sites)
	if err != nil {
		return nil, err
	}
	results := map[*goFunction]CoreResult{}
	for i, f := range functions {
		results[f] = checked[i]
	}
	return results, nil
}

// CheckCalls type-checks core expressions against the source of internal/core in coreDir,
// each inside a function of package core taking the site's parameters, and gives what each
// expression gives. A site naming something the core does not have fails here, naming its
// function.
func CheckCalls(coreDir string, sites []CallSite) ([]CoreResult, error) {
	fset, coreFiles, err := parseCore(coreDir)
	if err != nil {
		return nil, err
	}
	var source strings.Builder
	source.WriteString("package core\n")
	for _, site := range sites {
		var params []string
		for _, p := range site.Params {
			params = append(params, p[0]+" "+p[1])
		}
		expr, err := parser.ParseExpr(site.Call)
		if err != nil {
			return nil, fmt.Errorf("golang: %s: the core call %q is not a Go expression: %w", site.Function, site.Call, err)
		}
		// a call stands alone, whatever it gives; other expressions (and calls of builtins,
		// which must be used) are assigned, which needs a single value
		statement := "_ = " + site.Call
		if call, isCall := expr.(*ast.CallExpr); isCall {
			if fun, isIdent := call.Fun.(*ast.Ident); !isIdent || types.Universe.Lookup(fun.Name) == nil {
				statement = site.Call
			}
		}
		// one line per site, so that an error's line says which function it is about
		fmt.Fprintf(&source, "func _(%s) { %s }\n", strings.Join(params, ", "), statement)
	}
	generated, err := parser.ParseFile(fset, "spec_calls.go", source.String(), parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("golang: the core calls do not parse: %w", err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	var problems []string
	config := types.Config{
		Importer: importer.ForCompiler(fset, "source", nil),
		Error: func(err error) {
			if typeErr, ok := err.(types.Error); ok && fset.Position(typeErr.Pos).Filename == "spec_calls.go" {
				line := fset.Position(typeErr.Pos).Line - 2
				if line >= 0 && line < len(sites) {
					problems = append(problems, fmt.Sprintf("%s: the core call %q: %s",
						sites[line].Function, sites[line].Call, typeErr.Msg))
					return
				}
			}
			problems = append(problems, err.Error())
		},
	}
	config.Check("core", fset, append(coreFiles, generated), info)
	if len(problems) > 0 {
		return nil, fmt.Errorf("golang: %s", strings.Join(problems, "; "))
	}

	results := make([]CoreResult, len(sites))
	for i, decl := range generated.Decls {
		body := decl.(*ast.FuncDecl).Body.List[0]
		var expr ast.Expr
		switch s := body.(type) {
		case *ast.ExprStmt:
			expr = s.X
		case *ast.AssignStmt:
			expr = s.Rhs[0]
		}
		results[i] = resultOf(info.Types[expr].Type)
	}
	return results, nil
}

// resultOf splits the type of an expression into its results and a final error.
func resultOf(t types.Type) CoreResult {
	var all []types.Type
	if tuple, ok := t.(*types.Tuple); ok {
		for i := range tuple.Len() {
			all = append(all, tuple.At(i).Type())
		}
	} else if t != nil {
		all = []types.Type{t}
	}
	if n := len(all); n > 0 && types.Identical(all[n-1], types.Universe.Lookup("error").Type()) {
		return CoreResult{Types: all[:n-1], Errors: true}
	}
	return CoreResult{Types: all}
}

// CoreCall gives the core expression through which the Go binding implements function (its
// mapping m's call, or the one the naming rule gives), and whether the object it gives belongs
// to an argument. Other generators over internal/core (gen/cgo) call the core the same way.
func CoreCall(function *spec.Function, m *Mapping) (call string, borrowed bool, err error) {
	f, err := shape(function, m.Entry(function.Name))
	if err != nil {
		return "", false, err
	}
	if f == nil {
		return "", false, fmt.Errorf("golang: %s has no Go counterpart, hence no core call", function.Name)
	}
	return f.call, f.borrowed, nil
}
