"""An event's place as map links: a ``geo:`` URI and the same place in Apple and Google Maps."""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import quote

from chalicelib.guest_page.place_links import map_urls, place


def _event(venue="", address="", location=None):
    point = SimpleNamespace(latitude=location[0], longitude=location[1]) if location else None
    return SimpleNamespace(venue_name=venue, address=address, location=point)


def test_a_place_with_its_point_links_to_that_point():
    urls = map_urls(_event("The Loft", "5 Elm St", (40.7, -74.0)))
    assert urls == {
        "geo": "geo:40.7,-74?q=40.7,-74",
        "apple": "https://maps.apple.com/?q=The%20Loft%2C%205%20Elm%20St&ll=40.7%2C-74",
        "google": "https://www.google.com/maps/search/?api=1&query=40.7%2C-74",
    }


def test_a_place_without_a_point_is_searched_by_its_words_in_any_script():
    urls = map_urls(_event("בית קפה", "רחוב הרצל 1 & 2"))
    words = quote("בית קפה, רחוב הרצל 1 & 2", safe="")
    assert words.endswith("%201%20%26%202")  # the "&" cannot end the query early
    assert urls["geo"] == f"geo:0,0?q={words}"
    assert urls["google"] == f"https://www.google.com/maps/search/?api=1&query={words}"
    assert urls["apple"] == f"https://maps.apple.com/?q={words}"  # no point: no ll


def test_the_place_is_one_geo_link_then_the_two_maps_escaped():
    html = place(_event('Cafe "<Central>"', "1 Main St", (0.000001, 179.5)))
    assert html.startswith('<a class="place" href="geo:0.000001,179.5?q=0.000001,179.5">')
    assert '<span dir="auto">Cafe &quot;&lt;Central&gt;&quot;</span><br><span dir="auto">1 Main St</span></a>' in html
    assert html.count('rel="nofollow noopener"') == 2 and "Apple Maps" in html and "Google Maps" in html
    assert "<Central>" not in html


def test_a_point_alone_is_a_link_to_open_in_maps_and_no_place_is_nothing():
    assert ">Open in maps</a>" in place(_event(location=(1.5, 2.25)))
    assert place(_event()) == "" and map_urls(_event()) is None
