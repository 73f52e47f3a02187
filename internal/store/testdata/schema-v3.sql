-- A store as boardbench wrote it at schema version 3 (migrations 1-3 of
-- schema.go, dumped by sqlite3's .dump): two results, one tagged "old".
-- Added by hand: result 6666... whose document no longer parses (its
-- columns, figure, tag and finding must survive the migration). Do not edit.
CREATE TABLE result_docs (
			id TEXT PRIMARY KEY,
			doc TEXT NOT NULL
		);
INSERT INTO "result_docs" VALUES('44444444444444444444444444444444','{"schema_version":"1.0","id":"44444444444444444444444444444444","tool":{"name":"boardbench","version":"0.1.0-dev","go_version":"go1.26.8","arch":"amd64","cgo":true},"host":"bench-Radxa ROCK 5B","command":"run","status":"complete","started_at":"2025-03-01T10:00:00Z","finished_at":null,"options":{},"info":{"schema_version":"1.0","tool":{"name":"","version":"","go_version":"","arch":"","cgo":false},"collected_at":"2025-03-01T10:00:00Z","root":"","redacted":false,"os":{"distro":{"name":"","pretty_name":"Debian GNU/Linux 12 (bookworm)","id":"","id_like":null,"version_id":"","codename":"","source":""},"debian_version":"","armbian":null,"raspberry_pi_os":null,"kernel":{"release":"6.1.0-rk","build":"","proc_version":"","compiler":"","machine":"aarch64","arch":"","bits":null},"userland":{"arch":"arm64","bits":null,"float_abi":"","elf_machine":null,"source":""},"mixed_arch":false,"libc":{"name":"","version":"","source":""},"compilers":null},"cpu":{"arch":"","arch_source":"","heterogeneous":false,"cpus":null,"clusters":[{"id":0,"cpus":[0,1,2,3],"core":"Cortex-A55","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null},{"id":1,"cpus":[4,5],"core":"Cortex-A76","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null},{"id":2,"cpus":[6,7],"core":"Cortex-A76","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null}],"policies":null,"caches":null,"features":{"source":"","common":null,"neon":null,"aes":null,"pmull":null,"sha1":null,"sha2":null,"crypto_extensions":null,"crc32":null,"sve":null,"sve2":null,"aes_ni":null,"avx":null,"avx2":null,"avx512f":null,"sha_ni":null,"rvv":null,"lsx":null,"lasx":null}},"board":{"model":"Radxa ROCK 5B","model_source":"","compatible":null,"dmi":null,"cpuinfo_hardware":"","raspberry_pi":null,"raspberry_pi_source":""},"soc":{"guess":"Rockchip RK3588","reason":"","confidence":"","candidates":null,"kernel_soc":null},"memory":{"total_bytes":null,"available_bytes":null,"free_bytes":null,"buffers_bytes":null,"cached_bytes":null,"swap_total_bytes":null,"swap_free_bytes":null,"huge_page_size_bytes":null,"swappiness":null,"numa_nodes":null,"swaps":null,"zram":null,"zswap":null,"transparent_huge_pages":null,"warnings":null},"sensors":{"soc_temp":null,"thermal_zones":null,"cooling_devices":null,"hwmon":null},"storage":{"devices":null},"buses":{"pci":null,"aspm_policy":"","aspm_policies":null,"usb":null},"network":{"interfaces":null},"raspberry_pi":null,"vm":{"is_vm":null,"hypervisor":"","cloud":"","evidence":null}},"tools":[{"name":"7zip","path":"","version":"24.09","version_line":""},{"name":"openssl","path":"","version":"3.0.15","version_line":""}],"tuning":{"changed":null,"restored":false},"monitor":{"policies":null,"temp_label":"","power":null,"firmware":false},"phases":[],"findings":[{"id":"throttling","severity":"warning","title":"throttled","evidence":null,"advice":""}],"summary":{"clock_mhz":[],"clock_all_disturbed_mhz":[],"sevenzip_multi_mips":16000,"sevenzip_multi_runs":[],"sevenzip_multi_disturbed_runs":[],"sevenzip_multi_mips_undisturbed":null,"sevenzip_multi_basis":"","sevenzip_single_mips":[{"cpu":0,"core":"Cortex-A55","value":1200},{"cpu":4,"core":"Cortex-A76","value":3100}],"sevenzip_single_disturbed_cpus":[],"aes256_16k":[],"memcpy_mb_s":[],"memset_mb_s":[],"valid":true,"verdict":""}}');
INSERT INTO "result_docs" VALUES('55555555555555555555555555555555','{"schema_version":"1.0","id":"55555555555555555555555555555555","tool":{"name":"boardbench","version":"0.1.0-dev","go_version":"go1.26.8","arch":"amd64","cgo":true},"host":"bench-Raspberry Pi 5","command":"run","status":"complete","started_at":"2025-03-01T10:00:00Z","finished_at":null,"options":{},"info":{"schema_version":"1.0","tool":{"name":"","version":"","go_version":"","arch":"","cgo":false},"collected_at":"2025-03-01T10:00:00Z","root":"","redacted":false,"os":{"distro":{"name":"","pretty_name":"Debian GNU/Linux 12 (bookworm)","id":"","id_like":null,"version_id":"","codename":"","source":""},"debian_version":"","armbian":null,"raspberry_pi_os":null,"kernel":{"release":"6.1.0-rk","build":"","proc_version":"","compiler":"","machine":"aarch64","arch":"","bits":null},"userland":{"arch":"arm64","bits":null,"float_abi":"","elf_machine":null,"source":""},"mixed_arch":false,"libc":{"name":"","version":"","source":""},"compilers":null},"cpu":{"arch":"","arch_source":"","heterogeneous":false,"cpus":null,"clusters":[{"id":0,"cpus":[0,1,2,3],"core":"Cortex-A55","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null},{"id":1,"cpus":[4,5],"core":"Cortex-A76","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null},{"id":2,"cpus":[6,7],"core":"Cortex-A76","core_name":"","vendor":"","policy":null,"policies":null,"min_mhz":null,"max_mhz":null,"governor":"","capacity":null,"features":null}],"policies":null,"caches":null,"features":{"source":"","common":null,"neon":null,"aes":null,"pmull":null,"sha1":null,"sha2":null,"crypto_extensions":null,"crc32":null,"sve":null,"sve2":null,"aes_ni":null,"avx":null,"avx2":null,"avx512f":null,"sha_ni":null,"rvv":null,"lsx":null,"lasx":null}},"board":{"model":"Raspberry Pi 5","model_source":"","compatible":null,"dmi":null,"cpuinfo_hardware":"","raspberry_pi":null,"raspberry_pi_source":""},"soc":{"guess":"Rockchip RK3588","reason":"","confidence":"","candidates":null,"kernel_soc":null},"memory":{"total_bytes":null,"available_bytes":null,"free_bytes":null,"buffers_bytes":null,"cached_bytes":null,"swap_total_bytes":null,"swap_free_bytes":null,"huge_page_size_bytes":null,"swappiness":null,"numa_nodes":null,"swaps":null,"zram":null,"zswap":null,"transparent_huge_pages":null,"warnings":null},"sensors":{"soc_temp":null,"thermal_zones":null,"cooling_devices":null,"hwmon":null},"storage":{"devices":null},"buses":{"pci":null,"aspm_policy":"","aspm_policies":null,"usb":null},"network":{"interfaces":null},"raspberry_pi":null,"vm":{"is_vm":null,"hypervisor":"","cloud":"","evidence":null}},"tools":[{"name":"7zip","path":"","version":"24.09","version_line":""},{"name":"openssl","path":"","version":"3.0.15","version_line":""}],"tuning":{"changed":null,"restored":false},"monitor":{"policies":null,"temp_label":"","power":null,"firmware":false},"phases":[],"findings":[{"id":"throttling","severity":"warning","title":"throttled","evidence":null,"advice":""}],"summary":{"clock_mhz":[],"clock_all_disturbed_mhz":[],"sevenzip_multi_mips":11000,"sevenzip_multi_runs":[],"sevenzip_multi_disturbed_runs":[],"sevenzip_multi_mips_undisturbed":null,"sevenzip_multi_basis":"","sevenzip_single_mips":[{"cpu":0,"core":"Cortex-A55","value":1200},{"cpu":4,"core":"Cortex-A76","value":3100}],"sevenzip_single_disturbed_cpus":[],"aes256_16k":[],"memcpy_mb_s":[],"memset_mb_s":[],"valid":true,"verdict":""}}');
CREATE TABLE result_figures (
			result_id TEXT NOT NULL,
			name TEXT NOT NULL,
			value DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (result_id, name)
		);
INSERT INTO "result_figures" VALUES('44444444444444444444444444444444','sevenzip_multi_mips',16000.0);
INSERT INTO "result_figures" VALUES('44444444444444444444444444444444','sevenzip_single_mips.cpu0',1200.0);
INSERT INTO "result_figures" VALUES('44444444444444444444444444444444','sevenzip_single_mips.cpu4',3100.0);
INSERT INTO "result_figures" VALUES('44444444444444444444444444444444','sevenzip_single_mips.max',3100.0);
INSERT INTO "result_figures" VALUES('55555555555555555555555555555555','sevenzip_single_mips.cpu0',1200.0);
INSERT INTO "result_figures" VALUES('55555555555555555555555555555555','sevenzip_single_mips.cpu4',3100.0);
INSERT INTO "result_figures" VALUES('55555555555555555555555555555555','sevenzip_single_mips.max',3100.0);
INSERT INTO "result_figures" VALUES('55555555555555555555555555555555','sevenzip_multi_mips',11000.0);
CREATE TABLE result_findings (
			result_id TEXT NOT NULL,
			finding_id TEXT NOT NULL,
			PRIMARY KEY (result_id, finding_id)
		);
INSERT INTO "result_findings" VALUES('44444444444444444444444444444444','throttling');
INSERT INTO "result_findings" VALUES('55555555555555555555555555555555','throttling');
CREATE TABLE result_tags (
			result_id TEXT NOT NULL,
			tag TEXT NOT NULL,
			PRIMARY KEY (result_id, tag)
		);
INSERT INTO "result_tags" VALUES('44444444444444444444444444444444','old');
CREATE TABLE result_tools (
			result_id TEXT NOT NULL,
			name TEXT NOT NULL,
			version TEXT NOT NULL,
			PRIMARY KEY (result_id, name)
		);
INSERT INTO "result_tools" VALUES('44444444444444444444444444444444','openssl','3.0.15');
INSERT INTO "result_tools" VALUES('44444444444444444444444444444444','7zip','24.09');
INSERT INTO "result_tools" VALUES('55555555555555555555555555555555','7zip','24.09');
INSERT INTO "result_tools" VALUES('55555555555555555555555555555555','openssl','3.0.15');
CREATE TABLE results (
			id TEXT PRIMARY KEY,
			kind TEXT NOT NULL,
			board TEXT NOT NULL,
			soc TEXT NOT NULL,
			core_types TEXT NOT NULL,
			kernel TEXT NOT NULL,
			distro TEXT NOT NULL,
			arch TEXT NOT NULL,
			host TEXT NOT NULL,
			created_at TEXT NOT NULL,
			status TEXT NOT NULL,
			valid INTEGER NOT NULL,
			tags TEXT NOT NULL,
			figures TEXT NOT NULL,
			stored_at TEXT NOT NULL
		, finding_ids TEXT NOT NULL DEFAULT '[]', tools TEXT NOT NULL DEFAULT '{}');
INSERT INTO "results" VALUES('44444444444444444444444444444444','run','Radxa ROCK 5B','Rockchip RK3588','4×Cortex-A55 + 4×Cortex-A76','6.1.0-rk','Debian GNU/Linux 12 (bookworm)','arm64','bench-Radxa ROCK 5B','2025-03-01T10:00:00.000000000Z','complete',1,'["old"]','{"sevenzip_multi_mips":16000,"sevenzip_single_mips.cpu0":1200,"sevenzip_single_mips.cpu4":3100,"sevenzip_single_mips.max":3100}','2026-11-24T04:02:19.624901041Z','["throttling"]','{"7zip":"24.09","openssl":"3.0.15"}');
INSERT INTO "results" VALUES('55555555555555555555555555555555','run','Raspberry Pi 5','Rockchip RK3588','4×Cortex-A55 + 4×Cortex-A76','6.1.0-rk','Debian GNU/Linux 12 (bookworm)','arm64','bench-Raspberry Pi 5','2025-03-01T10:00:00.000000000Z','complete',1,'[]','{"sevenzip_multi_mips":11000,"sevenzip_single_mips.cpu0":1200,"sevenzip_single_mips.cpu4":3100,"sevenzip_single_mips.max":3100}','2026-11-24T04:02:19.625430636Z','["throttling"]','{"7zip":"24.09","openssl":"3.0.15"}');
CREATE TABLE schema_migrations (
	version INTEGER PRIMARY KEY,
	applied_at TEXT NOT NULL,
	boardbench TEXT NOT NULL
);
INSERT INTO "schema_migrations" VALUES(1,'2026-11-24T04:02:19.612073295Z','0.1.0-dev');
INSERT INTO "schema_migrations" VALUES(2,'2026-11-24T04:02:19.612073295Z','0.1.0-dev');
INSERT INTO "schema_migrations" VALUES(3,'2026-11-24T04:02:19.612073295Z','0.1.0-dev');
CREATE INDEX results_created_at ON results (created_at);
CREATE INDEX results_board ON results (board);
CREATE INDEX results_soc ON results (soc);
CREATE INDEX results_kernel ON results (kernel);
CREATE INDEX result_tags_tag ON result_tags (tag);
CREATE INDEX result_figures_name_value ON result_figures (name, value);
CREATE INDEX result_findings_finding ON result_findings (finding_id);
CREATE INDEX result_tools_name_version ON result_tools (name, version);
CREATE INDEX results_kind ON results (kind);
CREATE INDEX results_distro ON results (distro);
CREATE INDEX results_arch ON results (arch);
CREATE INDEX results_core_types ON results (core_types);
CREATE INDEX results_host ON results (host);
CREATE INDEX results_status_valid ON results (status, valid);
INSERT INTO "results" VALUES('66666666666666666666666666666666','mem','Orange Pi 5','Rockchip RK3588S','','6.1.0','Armbian 24.2','arm64','opi5','2024-01-02T03:04:05.000000000Z','complete',0,'["broken"]','{"memcpy_mb_s.max":9000.5}','2026-11-24T04:02:19.624901041Z','["swapping"]','{}');
INSERT INTO "result_docs" VALUES('66666666666666666666666666666666','{"this is": "not a result"');
INSERT INTO "result_figures" VALUES('66666666666666666666666666666666','memcpy_mb_s.max',9000.5);
INSERT INTO "result_findings" VALUES('66666666666666666666666666666666','swapping');
INSERT INTO "result_tags" VALUES('66666666666666666666666666666666','broken');
