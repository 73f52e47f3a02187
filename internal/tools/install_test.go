package tools

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/fixture"
)

// fakeExecutor records the commands it is given and answers from a script:
// each call takes the next reply.
type fakeExecutor struct {
	calls   []proc.Command
	replies []fakeReply
}

type fakeReply struct {
	out string
	err error
}

func (f *fakeExecutor) Exec(_ context.Context, c proc.Command) (proc.Result, error) {
	f.calls = append(f.calls, c)
	if len(f.replies) == 0 {
		return proc.Result{}, nil
	}
	r := f.replies[0]
	f.replies = f.replies[1:]
	res := proc.Result{Stdout: []byte(r.out)}
	if r.err != nil {
		res.Code = 100
	}
	return res, r.err
}

func (f *fakeExecutor) commandLines() []string {
	var out []string
	for _, c := range f.calls {
		out = append(out, c.String())
	}
	return out
}

func TestDetectPackageManagerAndHints(t *testing.T) {
	tests := []struct {
		command      string
		wantName     string
		wantSevenZip string
		wantOpenSSL  string
	}{
		{"apt-get", "apt", "install it with: sudo apt-get install -y --no-install-recommends 7zip (on older releases: p7zip-full)", "install it with: sudo apt-get install -y --no-install-recommends openssl"},
		{"dnf", "dnf", "install it with: sudo dnf install -y 7zip (on older releases: p7zip p7zip-plugins)", "install it with: sudo dnf install -y openssl"},
		{"pacman", "pacman", "install it with: sudo pacman -S --noconfirm --needed 7zip (on older releases: p7zip)", "install it with: sudo pacman -S --noconfirm --needed openssl"},
		{"apk", "apk", "install it with: sudo apk add 7zip (on older releases: p7zip)", "install it with: sudo apk add openssl"},
		{"zypper", "zypper", "install it with: sudo zypper --non-interactive install 7zip (on older releases: p7zip-full)", "install it with: sudo zypper --non-interactive install openssl"},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			h := toolsHost(t, nil, map[string]string{tt.command + "_--version": "x\n"})
			pm := DetectPackageManager(h)
			if pm == nil || pm.Name != tt.wantName {
				t.Fatalf("DetectPackageManager = %+v, want %s", pm, tt.wantName)
			}
			if got := pm.Hint(KindSevenZip); got != tt.wantSevenZip {
				t.Errorf("7-Zip hint = %q, want %q", got, tt.wantSevenZip)
			}
			if got := pm.Hint(KindOpenSSL); got != tt.wantOpenSSL {
				t.Errorf("openssl hint = %q, want %q", got, tt.wantOpenSSL)
			}
			// cryptsetup: Debian's cryptsetup-bin, "cryptsetup" elsewhere.
			wantCS := strings.Replace(tt.wantOpenSSL, "openssl", "cryptsetup", 1)
			if tt.command == "apt-get" {
				wantCS += "-bin"
			}
			if got := pm.Hint(KindCryptsetup); got != wantCS {
				t.Errorf("cryptsetup hint = %q, want %q", got, wantCS)
			}
		})
	}
	if pm := DetectPackageManager(toolsHost(t, nil, nil)); pm != nil {
		t.Errorf("empty root: package manager %+v, want none", pm)
	}
}

func TestInstallerRefusals(t *testing.T) {
	apt := map[string]string{"apt-get_--version": "apt 2.6.1\n"}
	tests := []struct {
		name       string
		commands   map[string]string
		allow      bool
		root       bool
		wantReason string
		wantHint   string
	}{
		{"not allowed", apt, false, true, "not allowed", "sudo apt-get install -y --no-install-recommends 7zip"},
		{"not root", apt, true, false, "needs root", "sudo apt-get install -y --no-install-recommends 7zip"},
		{"no package manager", nil, true, true, "no known package manager", "install 7-Zip (the 7zip package, command 7zz) or p7zip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeExecutor{}
			in := &Installer{Host: toolsHost(t, nil, tt.commands), Executor: fake, Allow: tt.allow, Root: tt.root}
			err := in.Install(context.Background(), KindSevenZip)
			var ie *InstallError
			if !errors.As(err, &ie) || !errors.Is(err, ErrNotInstalled) {
				t.Fatalf("err = %v, want *InstallError", err)
			}
			if !strings.Contains(ie.Reason, tt.wantReason) || !strings.Contains(ie.Hint, tt.wantHint) {
				t.Errorf("reason %q hint %q, want %q / %q", ie.Reason, ie.Hint, tt.wantReason, tt.wantHint)
			}
			if len(fake.calls) != 0 {
				t.Errorf("ran %v, want nothing run", fake.commandLines())
			}
		})
	}
}

func TestInstallerRunsPackageManager(t *testing.T) {
	failed := errors.New("exit status 100")
	tests := []struct {
		name      string
		manager   string
		kind      Kind
		replies   []fakeReply
		wantCalls []string
		wantErr   string
	}{
		{
			name: "apt first choice", manager: "apt-get", kind: KindSevenZip,
			wantCalls: []string{"apt-get install -y --no-install-recommends 7zip"},
		},
		{
			name: "apt refreshes stale lists, then falls back to p7zip-full", manager: "apt-get", kind: KindSevenZip,
			replies: []fakeReply{
				{"E: Unable to locate package 7zip\n", failed},
				{"Reading package lists...\n", nil},
				{"E: Unable to locate package 7zip\n", failed},
				{"Setting up p7zip-full\n", nil},
			},
			wantCalls: []string{
				"apt-get install -y --no-install-recommends 7zip",
				"apt-get update",
				"apt-get install -y --no-install-recommends 7zip",
				"apt-get install -y --no-install-recommends p7zip-full",
			},
		},
		{
			name: "dnf all alternatives fail", manager: "dnf", kind: KindSevenZip,
			replies: []fakeReply{
				{"No match for argument: 7zip\n", failed},
				{"Error: Failed to download metadata\n", failed},
			},
			wantCalls: []string{"dnf install -y 7zip", "dnf install -y p7zip p7zip-plugins"},
			wantErr:   "Failed to download metadata",
		},
		{
			name: "apk openssl", manager: "apk", kind: KindOpenSSL,
			wantCalls: []string{"apk add openssl"},
		},
		{
			name: "apt fio", manager: "apt-get", kind: KindFio,
			wantCalls: []string{"apt-get install -y --no-install-recommends fio"},
		},
		{
			name: "pacman fio", manager: "pacman", kind: KindFio,
			wantCalls: []string{"pacman -S --noconfirm --needed fio"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeExecutor{replies: tt.replies}
			var said strings.Builder
			in := &Installer{Host: toolsHost(t, nil, map[string]string{tt.manager + "_--version": "x\n"}), Executor: fake, Allow: true, Root: true, Say: &said}
			err := in.Install(context.Background(), tt.kind)
			// Every command was announced, in the order it ran, with its
			// exact command line.
			lines := strings.Split(strings.TrimSuffix(said.String(), "\n"), "\n")
			if len(lines) != len(fake.calls) {
				t.Errorf("%d announcements for %d commands:\n%s", len(lines), len(fake.calls), said.String())
			}
			for i, c := range fake.commandLines() {
				if i < len(lines) && (!strings.HasPrefix(lines[i], "boardbench: ") || !strings.Contains(lines[i], c)) {
					t.Errorf("command %q announced as %q", c, lines[i])
				}
			}
			if got := strings.Join(fake.commandLines(), " | "); got != strings.Join(tt.wantCalls, " | ") {
				t.Errorf("ran %q, want %q", got, strings.Join(tt.wantCalls, " | "))
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
			} else {
				var ie *InstallError
				if !errors.As(err, &ie) || !strings.Contains(ie.Output, tt.wantErr) || ie.Hint == "" {
					t.Fatalf("err = %#v, want InstallError with output containing %q and a hint", err, tt.wantErr)
				}
			}
			if tt.manager == "apt-get" {
				for _, c := range fake.calls {
					if len(c.Env) == 0 || c.Env[0] != "DEBIAN_FRONTEND=noninteractive" {
						t.Errorf("%s: env %v, want DEBIAN_FRONTEND=noninteractive", c, c.Env)
					}
				}
			}
		})
	}
}

func TestEnsureFindsInstalledToolWithoutInstalling(t *testing.T) {
	fake := &fakeExecutor{}
	h := toolsHost(t, map[string]string{"/usr/bin/7zz": elfHead}, map[string]string{"7zz": fixture.ReadTestdata(t, "debian12/7zz.txt"), "apt-get_--version": "x\n"})
	in := &Installer{Host: h, Executor: fake, Allow: true, Root: true}
	got, err := in.Ensure(context.Background(), KindSevenZip)
	if err != nil || got == nil || got.Name != "7zz" {
		t.Fatalf("Ensure = %+v, %v; want 7zz", got, err)
	}
	if len(fake.calls) != 0 {
		t.Errorf("ran %v for an installed tool", fake.commandLines())
	}
	// Missing tool, install "succeeds" but the fixture still lacks it.
	in.Host = toolsHost(t, nil, map[string]string{"apt-get_--version": "x\n"})
	if _, err := in.Ensure(context.Background(), KindOpenSSL); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Ensure after a vain install: err = %v, want ErrNotInstalled", err)
	}
}

func TestNewInstallerRefusesFixtureRoot(t *testing.T) {
	h := fixture.Open(t, t.TempDir())
	if _, err := NewInstaller(h, true); !errors.Is(err, host.ErrNotLive) {
		t.Errorf("NewInstaller(fixture) err = %v, want ErrNotLive", err)
	}
}

func TestEnsureFio(t *testing.T) {
	fake := &fakeExecutor{}
	h := toolsHost(t, map[string]string{"/usr/bin/fio": elfHead}, map[string]string{"fio_--version": "fio-3.33\n", "apt-get_--version": "x\n"})
	in := &Installer{Host: h, Executor: fake, Allow: true, Root: true}
	got, err := in.Ensure(context.Background(), KindFio)
	if err != nil || got == nil || got.Version != "3.33" || got.Flavor != FlavorFio {
		t.Fatalf("Ensure = %+v, %v; want fio 3.33", got, err)
	}
	if len(fake.calls) != 0 {
		t.Errorf("ran %v for an installed fio", fake.commandLines())
	}
	in.Host = toolsHost(t, nil, map[string]string{"apt-get_--version": "x\n"})
	in.Allow = false
	if _, err := in.Ensure(context.Background(), KindFio); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "apt-get install -y --no-install-recommends fio") {
		t.Errorf("Ensure with installs forbidden: err = %v, want ErrNotInstalled with the apt hint", err)
	}
	if len(fake.calls) != 0 {
		t.Errorf("installed although forbidden: %v", fake.commandLines())
	}
}

func TestParseFioVersion(t *testing.T) {
	for _, tt := range []struct {
		out, want string
		ok        bool
	}{
		{"fio-3.33\n", "3.33", true},
		{"fio-3.36-12-gabcdef\n", "3.36-12-gabcdef", true},
		{"fio: unknown option\n", "", false},
		{"", "", false},
	} {
		got, ok := ParseFioVersion(tt.out)
		if ok != tt.ok || got.Version != tt.want {
			t.Errorf("ParseFioVersion(%q) = %q, %v; want %q, %v", tt.out, got.Version, ok, tt.want, tt.ok)
		}
	}
}

func TestPackageAlternatives(t *testing.T) {
	byName := map[string]*PackageManager{}
	for i := range packageManagers {
		byName[packageManagers[i].Name] = &packageManagers[i]
	}
	for _, tt := range []struct {
		pm   string
		kind Kind
		want [][]string
	}{
		{"apt", KindSevenZip, [][]string{{"7zip"}, {"p7zip-full"}}},
		{"apt", KindCryptsetup, [][]string{{"cryptsetup-bin"}}},
		{"dnf", KindSevenZip, [][]string{{"7zip"}, {"p7zip", "p7zip-plugins"}}},
		{"pacman", KindFio, [][]string{{"fio"}}},
		{"apk", KindIperf3, [][]string{{"iperf3"}}},
		{"zypper", KindOpenSSL, [][]string{{"openssl"}}},
		{"apt", Kind("nosuchtool"), nil},
	} {
		pm := byName[tt.pm]
		if pm == nil {
			t.Fatalf("no package manager %q", tt.pm)
		}
		got := pm.Packages(tt.kind)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s.Packages(%s) = %q, want %q", tt.pm, tt.kind, got, tt.want)
		}
		// Packages returns a copy: changing it leaves the table alone.
		if len(got) > 0 {
			got[0][0] = "changed"
			if pm.Packages(tt.kind)[0][0] == "changed" {
				t.Errorf("%s.Packages(%s) returned the table itself", tt.pm, tt.kind)
			}
		}
	}
}
