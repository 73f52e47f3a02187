// Package benchtool holds the wrappers that run an external benchmark tool
// and parse its output into typed figures, keeping the raw output next to
// them: sevenzip (7-Zip's built-in benchmark), openssl (`openssl speed`) and
// cryptsetup (`cryptsetup benchmark`, the kernel's ciphers), iperf3
// (network throughput against a peer, `boardbench net`), and the workloads
// of `run --workloads`: zstd (compression of a generated input) and
// llamabench (llama.cpp's llama-bench on the user's model).
// Each runs its tool through a proc.Executor, so that tests pass a fake and
// a recorded root replays recorded output. The workloads of `run
// --workloads`, hpl (hpcc or xhpl) and sshcipher (ssh through a throwaway
// sshd), need a working directory or standard input and run their
// programs with proc.Start on the live system only.
package benchtool
