package chart

import (
	"encoding/json"
	"math"
	"strings"
)

func expm(x float64) float64 { return math.Exp(-x) }

func jsonOf(v any) (json.RawMessage, error) { return json.Marshal(v) }

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
