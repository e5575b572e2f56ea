// Command gen turns spec/api.yaml, with the mapping of each target in spec/bindings/, into the
// C headers, the cgo export layer and the language wrappers. `go generate ./...` runs it from
// this directory.
//
//	go run ./gen [-spec spec/api.yaml] [-root .] [-check]
//
// -check validates the spec and compares the outputs with the files on disk without writing
// anything; it fails, naming the stale files, when they differ. -list prints the paths of the
// generated files.
package main

//go:generate go run . -spec ../spec/api.yaml -root ..

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/metatensor-go/metatensor/gen/cgo"
	"github.com/metatensor-go/metatensor/gen/cheader"
	"github.com/metatensor-go/metatensor/gen/cpp"
	"github.com/metatensor-go/metatensor/gen/cppname"
	"github.com/metatensor-go/metatensor/gen/gocore"
	"github.com/metatensor-go/metatensor/gen/golang"
	"github.com/metatensor-go/metatensor/gen/rust"
	"github.com/metatensor-go/metatensor/gen/rustname"
	"github.com/metatensor-go/metatensor/gen/spec"
)

// Output is one generated file, its path relative to the repository root.
type Output struct {
	Path    string
	Content []byte
}

// Input is a validated spec and the mapping of each target, read beside it.
type Input struct {
	API  *spec.API
	Cgo  *cgo.Mapping
	Go   *golang.Mapping
	Cpp  *cpp.Mapping
	Rust *rust.Mapping
}

// Load reads the spec at specPath and the mappings of its bindings directory; the error
// lists every problem of the file that has some.
func Load(specPath string) (*Input, error) {
	api, err := spec.Load(specPath)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(filepath.Dir(specPath), "bindings")
	in := &Input{API: api}
	var cgoErr, goErr, cppErr, rustErr error
	in.Cgo, cgoErr = spec.LoadMapping(dir, api, cgo.Target)
	in.Go, goErr = spec.LoadMapping(dir, api, golang.Target)
	in.Cpp, cppErr = spec.LoadMapping(dir, api, cpp.Target)
	in.Rust, rustErr = spec.LoadMapping(dir, api, rust.Target)
	if err := errors.Join(cgoErr, goErr, cppErr, rustErr); err != nil {
		return nil, err
	}
	return in, nil
}

// Outputs runs every generator that needs nothing but the spec and the mappings.
func Outputs(in *Input) ([]Output, error) {
	api := in.API
	outputs := []Output{
		{"bindings/c/include/metatensor.h", cheader.Metatensor(api)},
		{"bindings/c/include/metatensor/dlpack/dlpack.h", cheader.DLPack(api)},
		{"bindings/c/include/metatensor/version.h", cheader.Version(api)},
		{cppname.Header, cpp.Generate(api, in.Cpp)},
	}
	for _, class := range cpp.MethodClasses(in.Cpp) {
		methods, err := cpp.Fragment(api, in.Cpp, class)
		if err != nil {
			return nil, err
		}
		outputs = append(outputs, Output{class.Fragment(), methods})
	}
	declarations, definitions, err := cpp.IOFragments(api, in.Cpp)
	if err != nil {
		return nil, err
	}
	if declarations != nil {
		outputs = append(outputs, Output{cppname.IODeclarations, declarations}, Output{cppname.IODefinitions, definitions})
	}
	status, err := gocore.Status(api)
	if err != nil {
		return nil, err
	}
	dlpack, err := gocore.DLPack(api)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, Output{"internal/core/status_gen.go", status}, Output{"internal/core/dlpack_gen.go", dlpack})
	layer, err := cgo.Generate(api, in.Cgo)
	if err != nil {
		return nil, err
	}
	for _, f := range layer {
		outputs = append(outputs, Output{f.Path, f.Content})
	}
	sys, err := rust.Generate(api, in.Rust)
	if err != nil {
		return nil, err
	}
	return append(outputs, Output{rustname.SysBindings, sys},
		Output{rustname.CheckedCalls, rust.Checked(api, in.Rust)}), nil
}

// AllOutputs is Outputs, the Go binding, whose generator reads the source of internal/core in
// the repository at source (the fixture spec has no counterpart there), and the outputs that
// read no spec (the labels index's probes): a golden copy of those would repeat the committed
// file, which TestCommittedOutputsAreFresh checks.
func AllOutputs(in *Input, source string) ([]Output, error) {
	outputs, err := Outputs(in)
	if err != nil {
		return nil, err
	}
	probes, err := gocore.Probes()
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, Output{gocore.ProbesPath, probes})
	binding, err := golang.Generate(in.API, in.Go, filepath.Join(source, golang.CoreDir))
	if err != nil {
		return nil, err
	}
	bodies, err := cgo.Bodies(in.API, in.Cgo, in.Go, filepath.Join(source, golang.CoreDir))
	if err != nil {
		return nil, err
	}
	return append(outputs, Output{golang.Path, binding}, Output{cgo.BodiesPath, bodies}), nil
}

func main() {
	specPath := flag.String("spec", "spec/api.yaml", "the spec to read")
	root := flag.String("root", ".", "the repository root, where outputs are written")
	check := flag.Bool("check", false, "only report outputs that differ from the files on disk")
	list := flag.Bool("list", false, "print the paths of the generated files")
	flag.Parse()
	if err := run(*specPath, *root, *check, *list); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(specPath, root string, check, list bool) error {
	in, err := Load(specPath)
	if err != nil {
		return err
	}
	// the core is read where the spec is, in the source tree, whatever root the outputs go to
	outputs, err := AllOutputs(in, filepath.Dir(filepath.Dir(specPath)))
	if err != nil {
		return err
	}
	stale := 0
	for _, out := range outputs {
		if list {
			fmt.Println(out.Path)
			continue
		}
		path := filepath.Join(root, out.Path)
		if check {
			current, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(current, out.Content) {
				fmt.Fprintf(os.Stderr, "stale: %s\n", out.Path)
				stale++
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, out.Content, 0o644); err != nil {
			return err
		}
	}
	if stale > 0 {
		return fmt.Errorf("%d generated file(s) are stale: run `go generate ./...`", stale)
	}
	return nil
}
