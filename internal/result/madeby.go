package result

import "strings"

// Maker names the tool and version that made r's figures: boardbench's
// own version for a result it measured; for an imported one the tool
// that wrote the log and the version the log names ("sbc-bench 0.9.72"),
// then the boardbench that imported it (Importer). The result records
// both: Summary.ImportedFormat and ImportedFormatVersion (or the options
// "format" and "format_version" the import keeps), and Tool.
func Maker(r *Result) string {
	if r.Command != CommandImport {
		return "boardbench " + orUnknown(r.Tool.Version)
	}
	var format, version string
	if s := r.Summary.ImportedSummary; s != nil {
		format, version = s.ImportedFormat, s.ImportedFormatVersion
	}
	if format == "" {
		format, _ = r.Options["format"].(string)
	}
	if version == "" {
		version, _ = r.Options["format_version"].(string)
	}
	name := strings.TrimSuffix(format, " result log")
	if name == "" {
		name = "the imported log's tool"
	}
	if version == "" {
		return name + " (version not recorded in the log)"
	}
	return name + " " + version
}

// Importer is "imported by boardbench VERSION" for an imported result,
// "" for a result boardbench measured.
func Importer(r *Result) string {
	if r.Command != CommandImport {
		return ""
	}
	return "imported by boardbench " + orUnknown(r.Tool.Version)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
