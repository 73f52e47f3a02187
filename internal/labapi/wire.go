package labapi

import "boardbench/internal/store"

// The paths of the API, under the lab's base URL.
const (
	// ResultsPath lists results (GET) and takes uploads (POST).
	ResultsPath = "/api/v1/results"
	// PagePrefix starts a result's permanent page URL: /results/ID.
	PagePrefix = "/results/"
)

// UploadAnswer is the body of a successful upload: 201 when the result
// was stored, 200 when the lab held it already (nothing changed).
type UploadAnswer struct {
	ID      string `json:"id"`
	Created bool   `json:"created"`
	// URL is the result's permanent page, relative to the lab's base URL
	// (/results/ID); Raw its document (/api/v1/results/ID).
	URL string `json:"url"`
	Raw string `json:"raw"`
}

// ErrorAnswer is the body of every error of the API.
type ErrorAnswer struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong: the HTTP status again and one line.
type ErrorDetail struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// ListAnswer is the body of GET /api/v1/results: one page of records in
// the order asked, and how many the filters select.
type ListAnswer struct {
	Total   int            `json:"total"`
	Page    int            `json:"page"`
	PerPage int            `json:"per_page"`
	Results []store.Record `json:"results"`
}
