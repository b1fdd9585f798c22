"""The browser test's checks through plain HTTP and of hostile input: CSRF refusal of every form,
friendly 4xx pages and no 500, and XSS in every user-supplied field, local and remote."""
import time

import requests
from selenium.webdriver.common.by import By

from apitest import check, eventually, step

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def http_checks(base_a, base_b, alice_cookies, domain_b):
    """CSRF, XSS and friendly 4xx, through plain HTTP."""
    step("CSRF: every form refuses a post without the page's token")
    session = requests.Session()
    session.cookies.update(alice_cookies)
    forms = ["/login", "/signup", "/logout", "/new", "/settings/profile", "/web/statuses/1/like", "/web/statuses/1/unlike",
             "/web/statuses/1/comment", "/web/statuses/1/edit", "/web/statuses/1/delete", "/web/accounts/1/follow",
             "/web/accounts/1/unfollow", "/web/accounts/1/block", "/web/accounts/1/unblock",
             "/web/follow_requests/1/authorize", "/web/follow_requests/1/reject", "/settings/password", "/web/sessions/1/revoke", "/web/statuses/1/report",
             "/settings/email", "/settings/delete"]
    for path in forms:
        for token in (None, "forged"):
            data = {"email": "x@y.z", "password": "p", "text": "t"}
            if token:
                data["csrf"] = token
            response = session.post(base_a + path, data=data, allow_redirects=False)
            check(response.status_code == 403, f"POST {path} without the right CSRF token answered {response.status_code}")
            check("text/html" in response.headers.get("Content-Type", "") and "Forbidden" in response.text,
                  f"POST {path} refusal is a friendly page")

    step("friendly 4xx pages, never 500")
    for path in ["/@nobody", "/@alice/123", "/@alice/notanumber", "/tags/" + "x" * 120, "/web/accounts/999/followers",
                 "/@a@b@c", "/web/remote_follow?acct=alice&handle=nonsense", "/web/remote_follow?acct=nobody&handle=a@b.c",
                 "/assets/app-000000000000.css"]:
        response = requests.get(base_a + path, headers={"Accept": "text/html"})
        check(400 <= response.status_code < 500, f"GET {path} answered {response.status_code}")
        if response.headers.get("Content-Type", "").startswith("text/html"):
            check("Go home" in response.text, f"GET {path} has a friendly page")

    for path in ["/search?q=" + "%F0%9F%98%80" * 100, "/search?q=%00%3Cscript%3E", "/explore?max_id=-1", "/home?max_id=abc", "/tags/%25%00"]:
        response = session.get(base_a + path)
        check(response.status_code < 500, f"GET {path} answered {response.status_code}")

    step("XSS: hostile names, bio, links, captions and comments are escaped, local and remote")
    return session


def xss_checks(evil, viewer_local, viewer_remote, domain_e, photos):
    """`evil` fills every field with markup; both nodes' pages must show it as text."""
    evil.open("/settings/profile")
    evil.fill("Display name", "<svg onload=alert(1)>")
    evil.fill("First name", XSS)
    evil.fill("Last name", XSS)
    evil.fill("Bio", XSS + " javascript:alert(1)")
    evil.fill("Label 1", XSS)
    evil.fill("Link 1", "javascript:alert(1)")
    evil.press("Save profile")
    eventually("the hostile profile saved", lambda: "Profile saved." in evil.text())
    evil.open("/new")
    evil.field("Choose photo 1").send_keys(photos["sea"])
    evil.fill("Alt text for photo 1", '"><script>alert(2)</script>')
    evil.fill("Caption", XSS + " #evil")
    evil.press("Share")
    eventually("the hostile post", lambda: "Comments" in evil.text())
    evil.fill("Add a comment", XSS)
    evil.press("Post comment")
    for person, path in ((evil, "/@mallory"), (evil, "/home"), (evil, "/tags/evil"), (viewer_remote, f"/@mallory@{domain_e}")):
        person.open(path)
        time.sleep(0.5)
        person.no_alert()
        source = person.driver.page_source
        # The DOM serialised: text shows "<" as "&lt;", so raw markup here would be a real element.
        check("<script>alert" not in source and "<svg onload" not in source and 'onerror="alert' not in source,
              f"markup is escaped on {path}")
        check(not person.driver.find_elements(By.XPATH, "//main//script | //main//svg[@onload] | //main//img[@onerror] | //a[starts-with(@href, 'javascript:')]"),
              f"no injected element on {path}")
    viewer_remote.shot("xss-remote-profile")
