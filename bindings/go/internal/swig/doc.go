// Package swig is the SWIG layer over include/tigris.h, generated from the interface shared
// by every SWIG binding, bindings/tigris.i (its SWIGGO typemaps). It only converts types;
// the idiomatic API (values, error, Close) is package tigris two folders up.
//
// The generated tigris_c.go and tigris_wrap.c are not checked in: `go generate ./...` in
// bindings/go writes them here (ctest does the same in a copy of the module in the build
// folder). cgo then compiles tigris_wrap.c with CGO_CFLAGS (-I include) and links it with
// CGO_LDFLAGS (-L <build>/libtigris).
package swig

//go:generate swig -go -cgo -intgosize 64 -module tigris_c -package swig -I../../../../include -o tigris_wrap.c -outdir . ../../../tigris.i
