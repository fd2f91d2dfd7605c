"""The guest page: the event page a person invited by text opens from the link in the text (/i/<code>).

invite_links.py makes and reads the link codes; rsvp.py opens a link and answers from it; pages.py,
page.css and page.js render the page, ics.py its calendar entry. The routes are in chalicelib/api/guest_page.py.
"""
