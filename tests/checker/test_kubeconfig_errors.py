"""Every kubeconfig problem is one line that names the file and the problem, exit 2, never a traceback.

Named cases cover what people meet (malformed YAML, a missing file by flag or by $KUBECONFIG, a
missing context, a failing exec plugin, a bad certificate); a seeded fuzz run mutates a valid
kubeconfig a few hundred ways and requires that loading it either works or raises one clear line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kubegap.checker.live.client import ReadOnlyClient
from kubegap.cli import main
from kubegap.errors import KubeconfigError, KubegapError

VALID = """apiVersion: v1
kind: Config
current-context: lab
contexts:
- name: lab
  context:
    cluster: lab-cluster
    user: lab-user
    namespace: default
clusters:
- name: lab-cluster
  cluster:
    server: https://127.0.0.1:6443
    insecure-skip-tls-verify: true
users:
- name: lab-user
  user:
    token: not-a-real-token
"""

CASES = {
    "malformed-yaml": ("garbage: [\n", "is not valid YAML (line 2)"),
    "empty": ("", "defines no context"),
    "binary": (b"\x00\xff\xfe\x00garbage".decode("latin-1"), ""),
    "a-list": ("- a\n- b\n", "is not a YAML mapping"),
    "contexts-not-a-list": ("contexts: {a: b}\n", "contexts is not a list"),
    "no-current-context": (VALID.replace("current-context: lab\n", ""), "sets no current-context"),
    "context-without-cluster": (
        VALID.replace("cluster: lab-cluster\n", "cluster: gone\n", 1),
        "names cluster 'gone'",
    ),
    "bad-ca-data": (
        VALID.replace("insecure-skip-tls-verify: true", "certificate-authority-data: '!!!notbase64'"),
        "cannot be used",
    ),
    "missing-ca-file": (
        VALID.replace("insecure-skip-tls-verify: true", "certificate-authority: /no/such/ca.crt"),
        "cannot be used",
    ),
    "failing-exec-plugin": (
        VALID.replace(
            "    token: not-a-real-token\n",
            "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: /bin/false\n",
        ),
        "credential plugin (exec) of context 'lab' failed",
    ),
}


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "en", *args])
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def _one_line_naming(error: str, path: str) -> None:
    assert "Traceback" not in error and error.count("\n") == 1, error
    assert error.startswith(f"Error: kubeconfig {path}"), error


@pytest.fixture(autouse=True)
def _no_real_kubeconfig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_broken_kubeconfig_is_one_line_and_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = CASES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = _cli(capsys, "scan", "--kubeconfig", str(path))
    assert code == 2 and not out
    _one_line_naming(err, str(path))
    assert expected in err


def test_unknown_context_lists_the_known_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config"
    path.write_text(VALID, encoding="utf-8")
    code, _, err = _cli(capsys, "scan", "--kubeconfig", str(path), "--context", "prod")
    assert code == 2
    _one_line_naming(err, str(path))
    assert "has no context 'prod' (contexts: lab)" in err


def test_missing_file_named_by_flag_or_by_kubeconfig(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = _cli(capsys, "scan", "--kubeconfig", "/no/such/config")
    assert code == 2 and "kubeconfig /no/such/config: the file does not exist" in err
    monkeypatch.setenv("KUBECONFIG", "/missing")
    code, _, err = _cli(capsys, "scan")
    assert code == 2
    _one_line_naming(err, "/missing")
    assert "KUBECONFIG names no file that exists" in err and "unset" not in err
    monkeypatch.setenv("KUBECONFIG", f"/missing:{tmp_path}/also-missing")
    code, _, err = _cli(capsys, "snapshot", "-o", str(tmp_path / "out.json"))
    assert code == 2 and "KUBECONFIG names no file that exists" in err


def test_a_folder_given_as_kubeconfig(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, "scan", "--kubeconfig", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and str(tmp_path) in err and "is a directory" in err


def test_korean_reader_gets_the_same_line_in_korean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("garbage: [\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["--lang", "ko", "scan", "--kubeconfig", str(path)])
    err = capsys.readouterr().err
    assert err == f"오류: kubeconfig {path}: YAML 형식이 잘못되었습니다(2번째 줄). " + (
        "`kubegap scan --demo`나 `kubegap scan --snapshot FILE`로 해 볼 수 있습니다\n"
    )


def _mutations(seed: int, count: int) -> list[str]:
    """Broken variants of VALID: truncated, lines dropped or doubled, characters replaced, values reshaped."""
    rng = random.Random(seed)
    lines = VALID.splitlines(keepends=True)
    found = []
    for _ in range(count):
        kind = rng.randrange(6)
        if kind == 0:
            text = VALID[: rng.randrange(len(VALID))]
        elif kind == 1:
            dropped = rng.randrange(len(lines))
            text = "".join(line for index, line in enumerate(lines) if index != dropped)
        elif kind == 2:
            doubled = rng.randrange(len(lines))
            text = "".join(lines[: doubled + 1] + lines[doubled:])
        elif kind == 3:
            chars = list(VALID)
            for _ in range(rng.randint(1, 4)):
                chars[rng.randrange(len(chars))] = rng.choice(":[]{}-&*!|>'\"\t#%@`")
            text = "".join(chars)
        elif kind == 4:
            target = rng.choice(["lab-cluster", "lab-user", "lab", "https://127.0.0.1:6443", "true", "v1"])
            text = VALID.replace(target, rng.choice(["[1, 2]", "{a: b}", "", "~", "42", "null"]), 1)
        else:
            position = rng.randrange(len(VALID))
            noise = "".join(chr(rng.randrange(0, 0x250)) for _ in range(rng.randint(1, 8)))
            text = VALID[:position] + noise + VALID[position:]
        found.append(text)
    return found


@pytest.mark.parametrize("batch", range(4))
def test_fuzzed_kubeconfigs_load_or_fail_in_one_line(batch: int, tmp_path: Path) -> None:
    """300 mutated kubeconfigs: each loads, or raises a KubegapError of one line naming the file."""
    failures = 0
    for index, text in enumerate(_mutations(seed=2026 + batch, count=75)):
        path = tmp_path / f"fuzz-{index}.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            ReadOnlyClient.from_kubeconfig(str(path), timeout=1)
        except KubegapError as error:
            failures += 1
            line = error.one_line()
            assert "\n" not in line and str(path) in line, (text, line)
            assert "Traceback" not in line and len(line) <= 500
            assert isinstance(error, KubeconfigError), (text, line)
        except Exception as error:  # anything else is a crash a user would see as a traceback
            pytest.fail(f"{type(error).__name__} escaped for:\n{text}\n{error}")
    assert failures > 0  # the mutations do break things: a fuzz run that breaks nothing tests nothing


def test_a_cluster_without_a_server_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config"
    path.write_text(VALID.replace("    server: https://127.0.0.1:6443\n", ""), encoding="utf-8")
    code, _, err = _cli(capsys, "scan", "--kubeconfig", str(path))
    assert code == 2
    _one_line_naming(err, str(path))
    assert "cluster 'lab-cluster' has no server" in err
