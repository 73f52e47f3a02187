// Package labtest holds the lab's integration tests (no code of its own):
// the built boardbench as two `serve --accept-uploads` processes on one
// real PostgreSQL whose connections are limited, a hundred uploaders at
// once, revoked tokens, hostile uploads, a pending queue filled while the
// lab is down and drained after, and a hundred `results push postgres://`
// processes against a server that refuses most of their connections.
// They need $BOARDBENCH_TEST_POSTGRES (scripts/pg-throwaway.sh) and fail
// without it under CI=true.
package labtest
