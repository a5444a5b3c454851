"""The page as an installable app, over HTTP against the real app: the manifest in each language, the
service worker's script and the release it names, the icons."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from twenty48.palette import PAGE, PAGE_DARK
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.app import STATIC
from twenty48.web.guard import CSP
from twenty48.web.manifest import APPLE_TOUCH_ICON, ICONS, LANGUAGES, TEXTS, language
from twenty48.web.release import release_id, shell

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

_HEAD = re.compile(r'const RELEASE = "([0-9a-f]{16})";\nconst SHELL = (\[.*\]);\n')


@pytest.fixture
def client(tmp_path: Path):
    with Store.open(tmp_path / "web.sqlite3") as store, TestClient(create_app(store)) as c:
        yield c


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_manifest_speaks_the_language_asked_for(client: TestClient, lang: str) -> None:
    answer = client.get(f"/manifest.webmanifest?lang={lang}", headers={"accept-language": "fr"})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert (manifest["name"], manifest["description"]) == TEXTS[lang]
    assert manifest["lang"] == lang and manifest["dir"] == "ltr"
    # Every language's name for browsers that pick one themselves; the app stays one app.
    assert {code: entry["value"] for code, entry in manifest["name_localized"].items()} == {
        code: TEXTS[code][0] for code in LANGUAGES
    }
    assert manifest["id"] == manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["short_name"] == "2048" and manifest["display"] == "standalone"


def test_the_manifest_has_the_colours_of_both_themes(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["theme_color"] == manifest["background_color"] == PAGE
    assert manifest["color_scheme_dark"] == {"theme_color": PAGE_DARK, "background_color": PAGE_DARK}
    # The page's own background in each theme: the colours an installed app opens with.
    css = (STATIC / "style.css").read_text()
    assert f"--bg: light-dark({PAGE}, {PAGE_DARK});" in css


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("", "en"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("fr-FR, zh-CN;q=0.5, ja;q=0.4", "zh"),
        ("en;q=0.2, zh-TW;q=0.7", "zh"),
        ("ja;q=0, zh;q=bad, fr", "en"),
        ("*", "en"),
    ],
)
def test_without_lang_the_manifest_follows_accept_language(header: str, expected: str) -> None:
    assert language(None, header) == expected


def test_a_language_the_page_does_not_speak_is_refused(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest?lang=fr")
    assert answer.status_code == 422
    assert answer.json()["error"] == "invalid_request"


def test_the_icons_are_drawn_at_their_sizes(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest").json()
    assert [(i["src"], i["sizes"], i["purpose"]) for i in manifest["icons"]] == [
        (f"/static/icons/{file}", f"{px}x{px}", purpose) for file, px, purpose in ICONS
    ]
    for icon in [*manifest["icons"], {"src": f"/static/icons/{APPLE_TOUCH_ICON}", "sizes": "180x180"}]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
        assert len(answer.content) < 8192  # small: each is fetched by every install
        image = Image.open(io.BytesIO(answer.content)).convert("RGBA")
        assert f"{image.width}x{image.height}" == icon["sizes"]
        corner = image.getpixel((0, 0))
        # A launcher masks a maskable icon and iOS rounds its own: those reach every edge.
        assert corner[3] == (0 if icon.get("purpose") == "any" else 255), icon["src"]
        assert image.getpixel((image.width // 2, image.height // 3))[3] == 255


def test_the_service_worker_is_served_from_the_root_naming_its_release(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["content-security-policy"] == CSP
    head = _HEAD.match(answer.text)
    assert head is not None
    assert head.group(1) == release_id(STATIC)
    assert json.loads(head.group(2)) == shell(STATIC)
    assert answer.text.endswith((STATIC / "sw.js").read_text())


def test_the_shell_is_what_the_page_needs_to_open() -> None:
    files = shell(STATIC)
    assert files[0] == "/"
    needed = ["app.js", "style.css", "lastseen.js", "fonts/clear-sans-700.woff2"]
    # Every part's words in every language: a part used offline, or a language chosen there, has them.
    needed += [f"strings/{path.name}" for path in (STATIC / "strings").glob("*.js")]
    assert all(f"/static/{name}" in files for name in needed)
    assert all(f"/static/icons/{file}" in files for file, _, _ in ICONS)
    # The views are kept once used; the worker and the page's html have addresses of their own.
    assert not [f for f in files if f.startswith("/static/views/") or f.endswith(("sw.js", "index.html"))]
    assert not [f for f in files if f.endswith("LICENSE")]


def test_any_change_to_any_file_is_a_new_release(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    first = release_id(copy)
    assert first == release_id(STATIC)
    (copy / "views" / "views.js").write_bytes((copy / "views" / "views.js").read_bytes() + b"\n")
    second = release_id(copy)
    (copy / "icons" / "icon-192.png").rename(copy / "icons" / "icon-193.png")
    third = release_id(copy)
    assert len({first, second, third}) == 3


def test_a_second_static_directory_is_served_as_its_own_release(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    page = (copy / "index.html").read_text()
    (copy / "index.html").write_text(page.replace("<title>2048", "<title>2048 B"))
    with Store.open(tmp_path / "web.sqlite3") as store, TestClient(create_app(store, static=copy)) as client:
        assert "<title>2048 B</title>" in client.get("/").text
        head = _HEAD.match(client.get("/sw.js").text)
        assert head is not None and head.group(1) == release_id(copy) != release_id(STATIC)
