// FedNode web app: small progressive enhancements. Every action also works without this file.
(function () {
  "use strict";

  // Likes in place: send the form, then show the new state and count.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList.contains("confirm") && !window.confirm(form.getAttribute("data-confirm") || "Are you sure?")) {
      event.preventDefault();
      return;
    }
    if (!form.classList.contains("like-form") || !window.fetch) return;
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new FormData(form), headers: { "X-FedNode-Fetch": "1" }, credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error("like failed"); return response.json(); })
      .then(function (state) { updateLike(form, state.liked, state.count); })
      .catch(function () { form.submit(); });
  });

  function updateLike(form, liked, count) {
    var button = form.querySelector("button");
    var label = form.querySelector(".label");
    form.action = form.action.replace(/\/(like|unlike)$/, liked ? "/unlike" : "/like");
    button.classList.toggle("liked", liked);
    button.setAttribute("aria-pressed", liked ? "true" : "false");
    if (label) label.textContent = liked ? "Unlike" : "Like";
    var card = form.closest(".card");
    var counter = card && card.querySelector(".like-count");
    if (counter) counter.textContent = String(count);
  }

  // Photo previews before upload (avatar and cover previews are cropped as the server crops).
  document.addEventListener("change", function (event) {
    var input = event.target;
    var target = input.getAttribute && input.getAttribute("data-preview");
    if (target) showPreview(input, document.getElementById(target));
    if (input.hasAttribute && input.hasAttribute("data-focus-for")) showFocus(input.closest(".slot"));
  });

  function showPreview(input, image) {
    if (!image) return;
    var file = input.files && input.files[0];
    if (!file) { if (image.classList.contains("preview")) { image.removeAttribute("src"); image.hidden = true; } return; }
    image.src = URL.createObjectURL(file);
    image.hidden = false;
    showFocus(input.closest(".slot"));
  }

  // New post: tap a preview to set the photo's focal point (Mastodon's x,y from -1 to 1, y up).
  function slotField(slot, name) { return slot && slot.querySelector("[name='" + name + slot.getAttribute("data-slot") + "']"); }

  function showFocus(slot) {
    if (!slot) return;
    var mark = slot.querySelector(".focus-mark"), image = slot.querySelector(".preview");
    var parts = (slotField(slot, "focus").value || "").split(",").map(Number);
    var valid = parts.length === 2 && parts.every(function (n) { return isFinite(n) && n >= -1 && n <= 1; });
    mark.hidden = !valid || image.hidden;
    if (valid) { mark.style.left = ((parts[0] + 1) * 50) + "%"; mark.style.top = ((1 - parts[1]) * 50) + "%"; }
  }

  document.addEventListener("click", function (event) {
    var image = event.target;
    if (!image.classList || !image.classList.contains("preview") || !image.closest(".slot")) return;
    var box = image.getBoundingClientRect();
    var x = ((event.clientX - box.left) / box.width) * 2 - 1, y = 1 - ((event.clientY - box.top) / box.height) * 2;
    var slot = image.closest(".slot");
    slotField(slot, "focus").value = x.toFixed(2) + "," + y.toFixed(2);
    showFocus(slot);
  });

  // New post: move a photo earlier or later. The photos, alt texts and focal points swap places
  // between slots; without this script, the "Position" fields order them instead.
  var canMoveFiles = (function () { try { return !!new DataTransfer().files; } catch (e) { return false; } })();
  var slots = Array.prototype.slice.call(document.querySelectorAll(".compose .slot"));
  if (canMoveFiles) slots.forEach(function (slot, index) {
    var number = slot.getAttribute("data-slot");
    var order = slotField(slot, "order");
    order.hidden = true;
    document.querySelector("label[for='" + order.id + "']").hidden = true;
    var moves = document.createElement("div");
    moves.className = "moves";
    [["earlier", -1], ["later", 1]].forEach(function (move) {
      var other = slots[index + move[1]];
      if (!other) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button small ghost";
      button.textContent = "Move " + move[0];
      button.setAttribute("aria-label", "Move photo " + number + " " + move[0]);
      button.addEventListener("click", function () { swapSlots(slot, other); });
      moves.appendChild(button);
    });
    slot.querySelector(".preview-frame").after(moves);
  });
  // Only a chosen photo can be moved.
  function showMoves() {
    slots.forEach(function (slot) {
      var moves = slot.querySelector(".moves");
      if (moves) moves.hidden = !slotField(slot, "photo").files.length;
    });
  }
  showMoves();
  document.addEventListener("change", showMoves);

  function swapSlots(a, b) {
    var fileA = slotField(a, "photo"), fileB = slotField(b, "photo");
    var listA = new DataTransfer(), listB = new DataTransfer();
    Array.prototype.forEach.call(fileA.files, function (file) { listA.items.add(file); });
    Array.prototype.forEach.call(fileB.files, function (file) { listB.items.add(file); });
    fileA.files = listB.files;
    fileB.files = listA.files;
    ["alt", "focus"].forEach(function (name) {
      var fieldA = slotField(a, name), fieldB = slotField(b, name), value = fieldA.value;
      fieldA.value = fieldB.value;
      fieldB.value = value;
    });
    showPreview(fileA, a.querySelector(".preview"));
    showPreview(fileB, b.querySelector(".preview"));
    [a, b].forEach(function (slot) { var more = slot.closest("details"); if (more && slotField(slot, "photo").files.length) more.open = true; });
    showMoves();
    toast("Photos moved");
  }

  // New post: send the photos with a progress bar, then follow the answer (the new post, or the
  // form again with what went wrong).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("compose") || !window.XMLHttpRequest || !window.FormData || event.defaultPrevented) return;
    event.preventDefault();
    var status = form.querySelector(".upload-status"), bar = form.querySelector(".upload-progress"), button = form.querySelector("button[type=submit]");
    status.hidden = false;
    button.disabled = true;
    var request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.upload.addEventListener("progress", function (progress) {
      if (progress.lengthComputable) bar.value = Math.round(progress.loaded / progress.total * 100);
    });
    request.addEventListener("load", function () {
      if (request.status < 400 && request.responseURL && new URL(request.responseURL).pathname !== "/new") { location.href = request.responseURL; return; }
      var page = new DOMParser().parseFromString(request.responseText, "text/html");
      var main = page.querySelector("main");
      if (!main) { form.submit(); return; }
      document.title = page.title;
      document.querySelector("main").replaceWith(main);
      window.scrollTo(0, 0);
    });
    request.addEventListener("error", function () { button.disabled = false; status.hidden = true; form.submit(); });
    request.send(new FormData(form));
  });

  // Share: the Web Share API where there is one, else copy the link.
  document.querySelectorAll("[data-share]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = new URL(button.getAttribute("data-share"), location.href).href;
      if (navigator.share) { navigator.share({ url: url }).catch(function () {}); return; }
      if (navigator.clipboard) navigator.clipboard.writeText(url).then(function () { toast("Link copied"); });
    });
  });

  // Carousel dots follow the scroll position.
  document.querySelectorAll(".carousel").forEach(function (carousel) {
    var dots = carousel.parentElement.querySelectorAll(".dots span");
    if (!dots.length) return;
    carousel.addEventListener("scroll", function () {
      var index = Math.round(carousel.scrollLeft / carousel.clientWidth);
      dots.forEach(function (dot, i) { dot.classList.toggle("on", i === index); dot.classList.toggle("off", i !== index); });
    }, { passive: true });
  });

  function toast(text) {
    var live = document.getElementById("live");
    if (!live) return;
    live.textContent = text;
    live.classList.add("show");
    setTimeout(function () { live.classList.remove("show"); }, 3000);
  }

  // Live updates (server-sent events from the streaming hub): a "new posts" banner on the
  // home feed and the unread count in the navigation bar.
  if (window.EventSource && document.querySelector(".nav-links a[href='/notifications']")) {
    var source = new EventSource("/web/stream");
    source.addEventListener("update", function () {
      var banner = document.getElementById("new-posts");
      if (banner) banner.hidden = false;
    });
    source.addEventListener("notification", function () {
      var badge = document.getElementById("unread-badge");
      if (badge) {
        var count = (parseInt(badge.textContent, 10) || 0) + 1;
        badge.textContent = String(count);
        badge.setAttribute("aria-label", count + " unread");
        badge.hidden = false;
      }
      var banner = document.getElementById("new-notifications");
      if (banner) banner.hidden = false;
      toast("New notification");
    });
  }
})();
