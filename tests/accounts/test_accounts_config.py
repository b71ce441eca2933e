"""`[[accounts]]` read from config.toml (CONTRACT section 1): every mistake is one line on stderr
naming the file, the account and the key, exit 2, no traceback; a Google account's token is its
own file; the single-account settings still make the one account `default`."""
from __future__ import annotations

import stat
from pathlib import Path

import pytest
from family_support import LOCAL_CONFIG, write_config

from assistant.cli import main
from assistant.commands.login import account_token
from assistant.settings import SettingsError, load_settings

LOCAL = '[[accounts]]\nname = "home"\nbackend = "local"\n'


@pytest.mark.parametrize("text,needle", [
    ('accounts = "home"\n', "accounts should be [[accounts]] tables"),
    ('[[accounts]]\nbackend = "local"\n', "name should be letters"),
    ('[[accounts]]\nname = "a/b"\nbackend = "local"\n', "name should be letters"),
    ('[[accounts]]\nname = "../up"\nbackend = "google"\n', "name should be letters"),
    ('[[accounts]]\nname = "x"\nbackend = "exchange"\n',
     "account 'x': backend should be 'local', 'google' or 'caldav'"),
    ('[[accounts]]\nname = "x"\nbackend = "caldav"\n', "account 'x': caldav_url is missing"),
    ('[[accounts]]\nname = "x"\nbackend = "caldav"\ncaldav_url = 5\n', "account 'x': caldav_url should be"),
    ('[[accounts]]\nname = "x"\nbackend = "local"\ncaldav_url = "http://h/"\n',
     "unknown setting 'caldav_url' for a local account"),
    (LOCAL + 'default_calendar = "home/Family"\n', "write it above the first [[accounts]] line"),
    (LOCAL + LOCAL, "two accounts are named 'home'"),
    (LOCAL + '[[accounts]]\nname = "b"\nbackend = "local"\n', "give the second a path"),
    ('calendars = ["home/Family"]\n', "add an [[accounts]] table"),
    ('calendars = ["Family"]\n' + LOCAL, "calendars should name calendars as"),
    ('calendars = ["work/Family"]\n' + LOCAL, "calendars: no account 'work'"),
    ('default_calendar = "home/Nope"\n' + LOCAL,
     "default_calendar: the account 'home' has no calendar 'Nope' (it has: Family)"),
    ('calendars = ["home/Leo"]\n' + LOCAL, "calendars: the account 'home' has no calendar 'Leo'"),
])
def test_a_bad_accounts_table_is_one_line_and_exit_2(home: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str, needle: str) -> None:
    path = write_config(home, text)
    assert main(["agenda", "--now", "2025-10-22T09:00:00"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert needle in err, err
    assert str(path) in err or needle.startswith("default_calendar") or needle.startswith("calendars:"), err


def test_a_caldav_password_in_an_account_is_never_printed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(home, '[[accounts]]\nname = "mom"\nbackend = "caldav"\ncaldav_url = "http://127.0.0.1:9/"\n'
                       'caldav_password = "hunter2-secret"\ncaldav_username = "mom"\nbogus = 1\n')
    assert main(["calendars"]) == 2
    assert "hunter2-secret" not in capsys.readouterr().err


def test_the_accounts_are_read_in_order(home: Path) -> None:
    write_config(home, LOCAL_CONFIG)
    settings = load_settings()
    assert [(a.name, a.backend) for a in settings.accounts] == [("home", "local"), ("work", "local")]
    assert settings.accounts[1].path == "work-calendars.db" and settings.accounts[1].owner == "Sam"
    assert settings.calendars == ("home/Family", "home/Leo", "work/Dad", "work/Mom")
    assert settings.default_calendar == "home/Family"


def test_the_environment_names_the_default_calendar(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(home, LOCAL_CONFIG)
    monkeypatch.setenv("CALENDAR_ASSISTANT_CALENDAR", "work/Dad")
    assert load_settings().default_calendar == "work/Dad"


def test_without_accounts_nothing_changes(home: Path) -> None:
    write_config(home, 'backend = "local"\n')
    settings = load_settings()
    assert settings.accounts == () and settings.calendars == () and settings.default_calendar is None


def test_config_set_cannot_touch_the_tables(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "accounts", "x"]) == 2
    assert "accounts" in capsys.readouterr().err


def test_each_google_account_has_its_own_token_file(home: Path) -> None:
    write_config(home, '[[accounts]]\nname = "dad"\nbackend = "google"\ngoogle_token_uri = "http://127.0.0.1:9/t"\n'
                       + '[[accounts]]\nname = "home"\nbackend = "local"\n')
    settings = load_settings()
    assert account_token(settings, "dad") == ("google-token-dad.json", "http://127.0.0.1:9/t")
    assert account_token(settings, None)[0] == "google-token.json"
    with pytest.raises(Exception, match="not a Google one"):
        account_token(settings, "home")
    with pytest.raises(Exception, match="not an account name"):
        account_token(settings, "../x")


def test_login_for_an_account_writes_its_token_0600(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The login flow itself is `test_google_auth`'s; here, that `--account` hands it the
    account's file, and that the file is written private."""
    from google.oauth2.credentials import Credentials

    import tools.backends.google.auth as auth

    secrets_file = tmp_path / "client.json"
    secrets_file.write_text("{}")
    seen: dict[str, object] = {}

    def fake_login(client_secrets: object, home_dir: Path, **kwargs: object) -> Credentials:
        seen.update(kwargs)
        credentials = Credentials(token="t", refresh_token="r", token_uri="http://127.0.0.1:9/t",
                                  client_id="c", client_secret="s")
        auth.save_credentials(credentials, home_dir, str(kwargs["token_file"]))
        return credentials

    monkeypatch.setattr(auth, "login", fake_login)
    assert main(["login", "--account", "dad", "--client-secrets", str(secrets_file), "--no-browser"]) == 0
    token = home / "google-token-dad.json"
    assert seen["token_file"] == "google-token-dad.json" and token.exists()
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert not (home / "google-token.json").exists()
    assert "google-token-dad.json" in capsys.readouterr().out
    assert main(["logout", "--account", "dad"]) == 0
    assert not token.exists()


def test_settings_error_names_the_file(home: Path) -> None:
    write_config(home, LOCAL + 'owner = 3\n')
    with pytest.raises(SettingsError, match="account 'home': owner should be a non-empty string"):
        load_settings()


def test_the_readme_example_is_read_as_it_is_written(home: Path) -> None:
    """The README's two-account config.toml, copied as it is (and with its CalDAV table added),
    is read without a change."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Several accounts"):]
    section = section[:section.index("\n## ", 1)]
    blocks = section.split("```toml\n")
    example = blocks[1].split("```")[0]
    caldav = "\n".join(line.strip() for line in blocks[2].split("```")[0].splitlines())
    write_config(home, example)
    settings = load_settings()
    assert [(a.name, a.backend) for a in settings.accounts] == [("home", "local"), ("dad", "google")]
    assert settings.default_calendar == "home/Family" and settings.calendars == ()
    write_config(home, example + caldav)
    assert load_settings().accounts[2].calendar == "Home"
