#!/usr/bin/env python3
"""The web page of `sift serve` in a real browser: headless Chromium (Debian's
chromium and chromium-driver) driven by Selenium (PyPI, pinned in the
Makefile).

A SQLite file of authors and books (one title holding a <script> element) is
served by the `sift` binary on loopback. The browser opens the index, follows
the books link, types a filter into the filter box and submits it, and the
rows shown must be those sqlite3 finds for the same condition; it follows a
book's author link and must see that author alone; a filter with a syntax
error must show the caret under the error's column; the stored <script>
must show as text and never run. A screenshot of the filtered page is saved
in the output folder. The database file is unchanged afterwards.

  Tests/Browser/serve_page.py SIFT OUTPUT_FOLDER
"""
import hashlib
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

HOSTILE = "<script>document.title='ran'</script>"


def database(path):
    c = sqlite3.connect(path)
    c.executescript("""
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER,
                            author_id INTEGER REFERENCES authors (id));
    """)
    c.executemany("INSERT INTO authors VALUES (?, ?)", [(1, "Ann Lee"), (2, "Bob Stone"), (3, "Émile Zola")])
    books = [(i, f"Book {i}", 1950 + (i * 7) % 70, 1 + i % 3) for i in range(1, 31)]
    books.append((31, HOSTILE, 2001, 2))
    c.executemany("INSERT INTO books VALUES (?, ?, ?, ?)", books)
    c.commit()
    c.close()


def digest(folder):
    h = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        h.update(name.encode())
        with open(os.path.join(folder, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    sift, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sift-browser.") as folder:
        path = os.path.join(folder, "library.sqlite")
        database(path)
        before = digest(folder)
        server = subprocess.Popen([sift, "serve", path, "--port", "0"], stdout=subprocess.PIPE, text=True)
        try:
            base = None
            for line in server.stdout:
                found = re.search(r" at (http://\S+)", line)
                if found:
                    base = found.group(1).rstrip("/")
                    break
            check(base, "sift serve printed no URL")
            threading.Thread(target=server.stdout.read, daemon=True).start()
            run(base, path, output)
        finally:
            server.terminate()
            server.wait(timeout=10)
        check(digest(folder) == before, "the database folder changed")
    print("browser: index, filter, relationship link, caret, escaping: passed")


def run(base, path, output):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    try:
        # The index lists the entities; follow the books link.
        driver.get(base + "/")
        driver.find_element(By.LINK_TEXT, "books").click()
        check("/books" in driver.current_url, f"the books link led to {driver.current_url}")

        # Type a filter and submit it.
        box = driver.find_element(By.NAME, "filter")
        box.clear()
        box.send_keys("year > 1990 AND author.name BEGINSWITH 'B'")
        box.send_keys(Keys.RETURN)
        expected = sorted(r[0] for r in sqlite3.connect(path).execute(
            "SELECT b.title FROM books b JOIN authors a ON a.id = b.author_id "
            "WHERE b.year > 1990 AND a.name LIKE 'B%'"))
        titles = sorted(titles_shown(driver))
        check(titles == expected, f"rows shown {titles}, expected {expected}")
        check(HOSTILE in titles, "the book whose title is a script element is not shown")
        driver.save_screenshot(os.path.join(output, "serve-page.png"))

        # The stored <script> is text: shown as written, never run.
        check(driver.title != "ran", "a stored <script> ran")
        try:
            driver.switch_to.alert
            raise AssertionError("an alert opened")
        except NoAlertPresentException:
            pass
        check("&lt;script&gt;" in driver.page_source, "the stored <script> is not escaped in the page's source")

        # A book's author link leads to that author alone.
        row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "tr") if HOSTILE in r.text)
        row.find_element(By.LINK_TEXT, "author").click()
        names = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "td") if c.text in ("Ann Lee", "Bob Stone", "Émile Zola")]
        check(names == ["Bob Stone"], f"the author link shows {names}")

        # A syntax error shows the caret under its column.
        driver.get(base + "/books")
        box = driver.find_element(By.NAME, "filter")
        box.send_keys("year > AND title == 'x'")
        box.send_keys(Keys.RETURN)
        carets = driver.find_elements(By.CSS_SELECTOR, ".caret")
        check(carets, "no caret for a syntax error")
        block = driver.find_element(By.CSS_SELECTOR, ".problem pre").text.split("\n")
        check(len(block) == 2 and block[0].startswith("filter="), f"the problem block is {block}")
        column = block[1].index("^") - len("filter=")
        check(block[0][len("filter="):][column:].startswith("AND"), f"the caret is under {block[0][len('filter=') + column:]!r}")
        driver.save_screenshot(os.path.join(output, "serve-page-error.png"))
    finally:
        driver.quit()


def titles_shown(driver):
    """The title column of the rows shown."""
    headers = [h.text.replace(" ▲", "").replace(" ▼", "") for h in driver.find_elements(By.CSS_SELECTOR, "tr th")]
    index = headers.index("title")
    titles = []
    for row in driver.find_elements(By.CSS_SELECTOR, "tr")[1:]:
        cells = row.find_elements(By.CSS_SELECTOR, "td")
        if len(cells) > index:
            titles.append(cells[index].text)
    return titles


if __name__ == "__main__":
    main()
