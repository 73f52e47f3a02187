// Package layering holds the tests of the rules between boardbench's
// packages that the compiler does not check: no production code imports
// "testing" (so none can ask whether it runs under go test), and package
// cmdutil, which every command links, stays a leaf that imports neither
// the session engine, the results store, the result schema nor the tuning
// package; every command that measures has the cli shape (Options,
// NewCmd(f, runF), a TestNewCmdOptions) and no command function is longer
// than 150 lines (cmdshape_test.go). It has no code of its own.
package layering
