"""The guest page: the event page a person invited by text opens from the link in the text (/i/<code>).

Presentation only: pages.py, page.css and page.js render the page (and account_pages.py the web account
deletion's pages), ics.py its calendar entry. Opening a link and answering from it are use cases
(services/web/guest_answers.py); the link codes are chalicelib/invite_links.py. The routes are in
chalicelib/api/guest_page.py.
"""
