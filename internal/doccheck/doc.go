// Package doccheck holds a test that enforces the project's documentation
// rule on the root module: every exported top-level identifier (function,
// method on an exported type, type, constant, variable) has a doc comment,
// and every package directory has a doc.go with the package overview.
//
// The test parses sources with go/parser and walks every package directory
// of the root module, commands included, skipping testdata, _test.go files
// and nested modules (testlab, bench). Any gap in any package fails it.
package doccheck
