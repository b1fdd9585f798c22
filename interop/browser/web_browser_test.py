"""The web app in a real browser (headless Chromium through Selenium), against two real FedNode
nodes: sign up on each, edit a profile with avatar and cover, post three photos with a caption
and a hashtag, follow across nodes, see the post in the other node's feed, like and comment
there, see the notification arrive live, search the hashtag, edit and delete the post, block,
log out. Elements are found as a person finds them: by label, button text and role. Every view
is saved at desktop and phone width under --screenshots. Then, with plain HTTP: CSRF refusal of
every form, XSS in every user-supplied field (local and remote), and friendly 4xx pages.

Prints ALL OK at the end; exits non-zero at the first failure, naming the step."""
import argparse
import os
import re
import shutil
import sys
import tempfile
import time

import requests
from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException, StaleElementReferenceException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from apitest import check, eventually, step  # noqa: E402
from web_checks import http_checks, xss_checks  # noqa: E402
from web_images import write_photos  # noqa: E402

PASSWORD = "a long web password"


def browser():
    """A headless Chromium: Debian's packages, or what CHROME_BIN / CHROMEDRIVER name."""
    options = webdriver.ChromeOptions()
    binary = os.environ.get("CHROME_BIN") or shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    check(binary, "no Chromium: install Debian's chromium and chromium-driver (scripts/install-deps)")
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900",
                 "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.implicitly_wait(2)
    return driver


class Person:
    """One person at one browser, on their own node."""

    def __init__(self, name, base, shots):
        self.name, self.base, self.shots = name, base, shots
        self.driver = browser()

    def open(self, path):
        self.driver.get(self.base + path)
        self.no_alert()

    def field(self, label):
        """The input a visible <label> names."""
        element = self.driver.find_element(By.XPATH, f"//label[normalize-space(.)={xpath_text(label)}]")
        target = element.get_attribute("for")
        return self.driver.find_element(By.ID, target) if target else element.find_element(By.XPATH, ".//input")

    def fill(self, label, text):
        element = self.field(label)
        element.clear()
        element.send_keys(text)

    def press(self, text, within=None):
        """Clicks the button (or link) showing `text`, or a button named `text` (aria-label)."""
        root = within or self.driver
        name = xpath_text(text)
        candidates = root.find_elements(By.XPATH, f".//button[normalize-space(.)={name} or @aria-label={name}] | .//a[normalize-space(.)={name}]")
        visible = [element for element in candidates if element.is_displayed()]
        check(visible, f"{self.name}: no button or link '{text}' on {self.driver.current_url}")
        visible[0].click()

    def link(self, text):
        links = [a for a in self.driver.find_elements(By.XPATH, f"//a[contains(normalize-space(.), {xpath_text(text)})]") if a.is_displayed()]
        check(links, f"{self.name}: no link '{text}' on {self.driver.current_url}")
        links[0].click()

    def text(self):
        """The page's visible text ("" while a new page replaces the old one: the body found
        may belong to the page being left, which Chromium reports as a stale element or as an
        inspector error, a node that "does not belong to the document")."""
        try:
            return self.driver.find_element(By.TAG_NAME, "body").text
        except (StaleElementReferenceException, NoSuchElementException):
            return ""
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return ""
            raise

    def accept_confirm(self):
        eventually("a confirmation dialog", lambda: self._alert(), timeout=5)
        self.driver.switch_to.alert.accept()

    def _alert(self):
        try:
            self.driver.switch_to.alert
            return True
        except NoAlertPresentException:
            return False

    def no_alert(self):
        """Injected script would show an alert; none may ever be open."""
        check(not self._alert(), f"{self.name}: a script alert opened on {self.driver.current_url} (XSS)")

    def shot(self, view):
        """Saves the current view at desktop width and at 390 px (a phone)."""
        for label, (width, height) in (("desktop", (1280, 900)), ("mobile", (390, 844))):
            self.driver.set_window_size(width, height)
            time.sleep(0.2)
            self.driver.save_screenshot(os.path.join(self.shots, f"{view}-{label}.png"))
        self.driver.set_window_size(1280, 900)

    def sign_up(self, username, email):
        self.open("/")
        self.link("Sign up")
        self.fill("Username", username)
        self.fill("Email", email)
        self.fill("Password", PASSWORD)
        self.driver.find_element(By.NAME, "agreement").click()
        self.press("Sign up", within=self.driver.find_element(By.TAG_NAME, "main"))
        eventually(f"{username} signed in", lambda: "Edit profile" in self.text())

    def cookies(self):
        return {cookie["name"]: cookie["value"] for cookie in self.driver.get_cookies()}

    def quit(self):
        self.driver.quit()


def xpath_text(text):
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ", '\"', ".join(f'"{part}"' for part in text.split('"')) + ")"


def scenario(alice, bob, photos, domain_a, domain_b):
    step("landing and sign-up pages")
    alice.open("/")
    check("Log in" in alice.text(), "the landing page offers to log in")
    alice.shot("landing")
    alice.open("/signup")
    alice.shot("signup")
    alice.open("/login")
    alice.shot("login")

    step("sign up on both nodes")
    alice.sign_up("alice", "alice@a.test")
    alice.shot("edit-profile-welcome")
    bob.sign_up("bob", "bob@b.test")
    bob.open("/home")
    check("Your feed is empty" in bob.text(), "a new feed suggests people to follow")
    bob.shot("home-empty")

    step("edit the profile with avatar and cover")
    alice.open("/settings/profile")
    alice.fill("Display name", "Alice Liddell")
    alice.fill("First name", "Alice")
    alice.fill("Last name", "Liddell")
    alice.fill("Bio", "Photos of piers and sunsets. #golden")
    alice.fill("Label 1", "Portfolio")
    alice.fill("Link 1", "https://example.com/alice")
    alice.field("Avatar").send_keys(photos["avatar"])
    alice.field("Cover image").send_keys(photos["cover"])
    alice.press("Save profile")
    eventually("the profile saved", lambda: "Profile saved." in alice.text())
    alice.open("/@alice")
    check("Alice Liddell" in alice.text() and "@alice@" + domain_a in alice.text(), "the profile shows the names")
    avatar = alice.driver.find_element(By.XPATH, "//img[@alt=\"Alice Liddell's avatar\"]")
    check("/media/" in avatar.get_attribute("src"), "the avatar is the uploaded one")
    alice.shot("profile-own")

    step("follow across nodes through search")
    bob.open("/search")
    bob.fill("Search people and hashtags", f"alice@{domain_a}")
    bob.press("Search", within=bob.driver.find_element(By.TAG_NAME, "main"))
    eventually("alice found", lambda: "Alice Liddell" in bob.text())
    bob.shot("search-people")
    bob.link("Alice Liddell")
    eventually("alice's remote profile", lambda: f"@alice@{domain_a}" in bob.text())
    bob.press("Follow")
    profile = bob.driver.current_url.replace(bob.base, "")
    eventually("the button shows the follow request", lambda: "Requested" in bob.text() or "Unfollow" in bob.text())

    def accepted():
        bob.open(profile)
        return "Unfollow" in bob.text()
    eventually("alice's node accepts the follow", accepted, timeout=60)
    bob.shot("profile-remote")

    step("bob watches his feed while alice posts")
    bob.open("/home")
    time.sleep(1)  # the page's event stream connects

    step("post three photos with caption and hashtag, reordered, with a focal point")
    alice.open("/home")
    alice.link("New post")
    alice.field("Choose photo 1").send_keys(photos["sunset"])
    alice.fill("Alt text for photo 1", "An orange sun over the pier")
    alice.driver.find_element(By.XPATH, "//summary[contains(., 'Add more photos')]").click()
    alice.field("Choose photo 2").send_keys(photos["sea"])
    alice.fill("Alt text for photo 2", "Blue sea under the moon")
    alice.field("Choose photo 3").send_keys(photos["forest"])
    alice.fill("Alt text for photo 3", "A green forest")
    alice.press("Move photo 3 earlier")
    check(alice.field("Alt text for photo 2").get_attribute("value") == "A green forest", "the forest moved to the second place")
    check(alice.field("Alt text for photo 3").get_attribute("value") == "Blue sea under the moon", "the sea moved to the third place")
    preview = alice.driver.find_element(By.ID, "preview1")
    eventually("the preview of photo 1 shown", lambda: preview.is_displayed() and preview.size["height"] > 0)
    preview.click()
    focus = alice.field("Focal point of photo 1 (optional)").get_attribute("value")
    check(re.fullmatch(r"-?[01]\.\d\d,-?[01]\.\d\d", focus or ""), f"tapping the preview set a focal point ({focus!r})")
    alice.fill("Caption", "Golden hour at the pier #golden")
    alice.shot("new-post")
    alice.press("Share")
    eventually("the post page", lambda: "Comments" in alice.text() and "Golden hour" in alice.text(), timeout=60)
    shown = [image.get_attribute("alt") for image in alice.driver.find_elements(By.XPATH, "//main//figure[@class='slide']/img")]
    check(shown[:3] == ["An orange sun over the pier", "A green forest", "Blue sea under the moon"], f"the photos in the chosen order: {shown}")
    post_url = alice.driver.current_url
    status = requests.get(f"{alice.base}/api/v1/statuses/{post_url.rstrip('/').split('/')[-1]}", timeout=10).json()
    first = status["media_attachments"][0]["meta"].get("focus") or {}
    chosen = [float(part) for part in focus.split(",")]
    check(abs(first.get("x", 9) - chosen[0]) < 0.006 and abs(first.get("y", 9) - chosen[1]) < 0.006, f"the focal point {focus} was stored: {first}")
    alice.shot("post-detail")

    step("the post reaches bob's feed on the other node, announced live")
    banner = bob.driver.find_element(By.ID, "new-posts")
    eventually("the new-posts banner appears without reloading", lambda: banner.is_displayed(), timeout=60)
    bob.shot("home-new-posts")
    bob.press("New posts · show them")
    eventually("alice's post in bob's feed", lambda: "Golden hour at the pier" in bob.text(), timeout=30)
    bob.shot("home-feed")

    step("alice watches her feed while bob likes and comments")
    alice.open("/home")
    time.sleep(1)  # the page's event stream connects
    card = bob.driver.find_element(By.XPATH, "//article[contains(@aria-label, 'Alice Liddell')]")
    bob.press("Like", within=card)
    eventually("the like counted in place", lambda: card.find_element(By.CLASS_NAME, "like-count").text == "1")
    check(card.find_element(By.CSS_SELECTOR, "button.like").get_attribute("aria-pressed") == "true", "the like button shows it is pressed")
    bob.fill("Add a comment", "Lovely light!")
    bob.press("Post comment", within=bob.driver.find_element(By.XPATH, "//article[contains(@aria-label, 'Alice Liddell')]"))
    eventually("the comment shown", lambda: "Lovely light!" in bob.text())

    step("the notification arrives live")
    badge = alice.driver.find_element(By.ID, "unread-badge")
    eventually("the unread badge appears without reloading", lambda: badge.is_displayed() and badge.text.strip() not in ("", "0"), timeout=60)
    alice.shot("home-live-notification")
    alice.link("Notifications")
    eventually("like and comment listed", lambda: "liked your post" in alice.text() and "commented" in alice.text(), timeout=30)
    alice.shot("notifications")
    alice.open(post_url.replace(alice.base, ""))
    eventually("the comment on alice's node", lambda: "Lovely light!" in alice.text(), timeout=30)

    step("report the post from its page")
    bob.open("/home")
    bob.driver.find_element(By.XPATH, "//article[contains(@aria-label, 'Alice Liddell')]//a[@class='time']").click()
    eventually("the post page on bob's node", lambda: "Comments" in bob.text() and "Report" in bob.text())
    bob.press("Report")
    bob.driver.find_element(By.XPATH, "//select[@id=//label[normalize-space(.)='What is wrong with it?']/@for]/option[@value='spam']").click()
    bob.fill("Tell the moderators more (optional)", "Testing the report form")
    bob.shot("report")
    bob.press("Send report")
    eventually("the report sent", lambda: "Thank you" in bob.text())

    step("search the hashtag")
    bob.open("/search")
    bob.fill("Search people and hashtags", "#golden")
    bob.press("Search", within=bob.driver.find_element(By.TAG_NAME, "main"))
    eventually("the hashtag page", lambda: "#golden" in bob.text())
    check(bob.driver.find_elements(By.XPATH, "//ul[@aria-label='Photos']//img[@alt='An orange sun over the pier']"), "the tag grid shows the photo")
    bob.shot("tag")
    bob.open("/explore?feed=federated")
    bob.shot("explore")

    step("edit and delete the post")
    alice.open(post_url.replace(alice.base, ""))
    alice.press("Edit post")
    alice.fill("Caption", "Golden hour at the pier, edited #golden")
    alice.shot("edit-post")
    alice.press("Save changes")
    eventually("the edited caption", lambda: "edited" in alice.text())
    alice.press("Delete post")
    alice.accept_confirm()
    eventually("back on the profile", lambda: "No posts yet." in alice.text())

    step("block")
    alice.open(f"/@bob@{domain_b}")
    alice.press("Block")
    alice.accept_confirm()
    eventually("bob blocked", lambda: "Unblock" in alice.text())

    step("suggestions, explore and error pages")
    alice.open("/people")
    alice.shot("people")
    alice.open("/settings/account")
    check("this browser" in alice.text(), "the settings list this browser's session")
    check("Change email" in alice.text() and "alice@a.test" in alice.text(), "the settings show the sign-in email")
    alice.shot("settings-account")
    alice.open("/explore")
    alice.shot("explore-local")
    alice.open("/@nobody-here")
    check("Go home" in alice.text(), "an unknown profile gets a friendly page")
    alice.shot("not-found")

    step("remove the cover image")
    alice.open("/settings/profile")
    alice.field("Remove cover image").click()
    alice.press("Save profile")
    eventually("the profile saved", lambda: "Profile saved." in alice.text())
    check("Remove cover image" not in alice.text() and "Remove avatar" in alice.text(), "the cover is gone, the avatar stays")

    step("log out")
    for person in (alice, bob):
        person.press("Log out")
        eventually("signed out", lambda: "Log in" in person.text())
    alice.open("/@alice")
    alice.shot("profile-logged-out")


def delete_account(person, username):
    """Deletes the signed-in account from the settings page, as a person would."""
    step(f"{username} deletes the account from the settings")
    person.open("/settings/account")
    person.fill("Password (confirms the deletion)", "not the password")
    person.press("Delete my account")
    person.accept_confirm()
    eventually("the wrong password refused", lambda: "That password is not right." in person.text())
    person.fill("Password (confirms the deletion)", PASSWORD)
    person.press("Delete my account")
    person.accept_confirm()
    eventually("the account deleted and signed out", lambda: "Your account was deleted." in person.text())
    person.shot("account-deleted")
    check(requests.get(f"{person.base}/@{username}", headers={"Accept": "text/html"}, timeout=10).status_code in (404, 410),
          "the deleted profile is gone")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-a", required=True)
    parser.add_argument("--node-b", required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    for old in os.listdir(args.screenshots):
        if old.startswith("failure-"):
            os.remove(os.path.join(args.screenshots, old))
    domain_a = re.sub(r"^https?://", "", args.node_a)
    domain_b = re.sub(r"^https?://", "", args.node_b)
    photos = write_photos(tempfile.mkdtemp(prefix="fednode-web-"))
    alice = Person("alice", args.node_a, args.screenshots)
    bob = Person("bob", args.node_b, args.screenshots)
    mallory = None
    try:
        scenario(alice, bob, photos, domain_a, domain_b)
        alice.sign_up("carol", "carol@a.test")
        delete_account(alice, "carol")
        alice.sign_up("carol2", "carol2@a.test")
        http_checks(args.node_a, args.node_b, alice.cookies(), domain_b)
        mallory = Person("mallory", args.node_a, args.screenshots)
        mallory.sign_up("mallory", "mallory@a.test")
        bob.open("/login")
        bob.fill("Email", "bob@b.test")
        bob.fill("Password", PASSWORD)
        bob.press("Log in", within=bob.driver.find_element(By.TAG_NAME, "main"))
        eventually("bob signed in again", lambda: "Notifications" in bob.text())
        xss_checks(mallory, alice, bob, domain_a, photos)
    except Exception:
        for person in filter(None, (alice, bob, mallory)):
            try:
                person.driver.save_screenshot(os.path.join(args.screenshots, f"failure-{person.name}.png"))
                print(f"{person.name} was at {person.driver.current_url}:\n{person.text()[:2000]}", flush=True)
            except Exception:
                pass
        raise
    finally:
        for person in filter(None, (alice, bob, mallory)):
            person.quit()
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
