package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"boardbench/internal/serve"
	"boardbench/internal/store"
)

// explainPages prints the statements and plans of serve's pages on the
// store spec, opened read-only as serve opens it.
func explainPages(spec string, pages []string) error {
	ctx := context.Background()
	st, err := store.OpenReadOnly(ctx, spec)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, page := range pages {
		_, raw, _ := strings.Cut(page, "?")
		v, err := url.ParseQuery(raw)
		if err != nil {
			return fmt.Errorf("%s: %v", page, err)
		}
		q, err := serve.TableQuery(v)
		if err != nil {
			return fmt.Errorf("%s: %v", page, err)
		}
		plans, err := store.Explain(ctx, st, q)
		if err != nil {
			return fmt.Errorf("%s: %v", page, err)
		}
		fmt.Printf("### %s\n%s", page, plans)
	}
	return nil
}
