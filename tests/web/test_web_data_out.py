"""Data out: schema-versioned JSON and CSV exports, the Atom feed and the OpenAPI description."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ElementTree

from starlette.testclient import TestClient
from web_fixture_ids import DRIVER, HBM, STUDY

from kubegap.knowledge.model import SCHEMA_VERSION
from kubegap.web.data_out import CSV_COLUMNS

ATOM = "{http://www.w3.org/2005/Atom}"


def test_json_export_is_schema_versioned_and_complete(client: TestClient) -> None:
    response = client.get("/export/incidents.json")
    assert response.status_code == 200
    data = response.json()
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["count"] == 5 == len(data["incidents"])
    first = data["incidents"][0]
    assert first["id"] == HBM
    assert first["tags"]["contributing-factor"] == ["hang-instead-of-fail", "infrequent-checkpoints"]
    assert first["title"]["ko"] and first["title"]["en"]


def test_csv_export_has_a_header_one_row_per_incident_and_defused_formulas(client: TestClient) -> None:
    response = client.get("/export/incidents.csv")
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 6
    by_id = {row[1]: dict(zip(CSV_COLUMNS, row, strict=True)) for row in rows[1:]}
    assert by_id[DRIVER]["schema_version"] == str(SCHEMA_VERSION)
    assert by_id[DRIVER]["title_en"] == "GPUs vanished on every node during a driver upgrade <b>&</b>"
    assert by_id[HBM]["component"] == "gpu-memory;nccl"
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_atom_feed_lists_newest_incidents_with_escaped_text(client: TestClient) -> None:
    response = client.get("/en/feed.atom")
    assert response.headers["content-type"].startswith("application/atom+xml")
    assert b"<b>&" not in response.content
    feed = ElementTree.fromstring(response.content)
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 5
    assert (
        entries[0].findtext(f"{ATOM}title") == "Training job hung instead of exiting after an HBM ECC error"
    )
    assert entries[0].find(f"{ATOM}link").get("href").endswith(f"/en/incidents/{HBM}")  # type: ignore[union-attr]
    assert entries[-1].findtext(f"{ATOM}title").endswith("<b>&</b>")  # type: ignore[union-attr]
    korean = ElementTree.fromstring(client.get("/ko/feed.atom").content)
    assert (
        korean.findall(f"{ATOM}entry")[0].findtext(f"{ATOM}title")
        == "HBM ECC 오류 뒤 학습 작업이 끝나지 않고 멈춤"
    )


def test_openapi_covers_every_json_endpoint_and_their_required_fields(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.")
    examples = {
        "/{lang}/incidents.json": "/en/incidents.json?q=NCCL",
        "/{lang}/incidents/{incident_id}.json": f"/en/incidents/{HBM}.json",
        "/{lang}/facets.json": "/en/facets.json",
        "/{lang}/facets/{facet}/{term}.json": "/en/facets/cause/gpu-fault.json",
        "/{lang}/studies.json": "/en/studies.json",
        "/{lang}/studies/{study_id}.json": f"/en/studies/{STUDY}.json",
        "/{lang}/checks.json": "/en/checks.json",
        "/{lang}/checks/{check_id}.json": "/en/checks/fixture-nccl-async-errors.json",
        "/{lang}/cluster.json": "/en/cluster.json",
        "/export/incidents.json": "/export/incidents.json",
    }
    assert set(document["paths"]) == set(examples)
    schemas = document["components"]["schemas"]
    for template, url in examples.items():
        reference = document["paths"][template]["get"]["responses"]["200"]["content"]["application/json"][
            "schema"
        ]
        schema = schemas[reference["$ref"].rsplit("/", 1)[-1]]
        data = client.get(url).json()
        missing = [field for field in schema["required"] if field not in data]
        assert not missing, (url, missing)
        if "kind" in schema["properties"]:
            assert data["kind"] == schema["properties"]["kind"]["const"]
