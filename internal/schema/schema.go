// Package schema holds the version of boardbench's JSON documents. Any change
// that renames or removes a field, or changes its meaning, bumps the major
// version; adding fields does not. docs/schema.md describes every field.
package schema

// Version is written as "schema_version" at the top of every JSON document.
const Version = "1.3"
