/* Bookly's chat page: start or resume a conversation with the support API (DESIGN.md §4).
 *
 * Plain JavaScript, no build step. Everything the server or the customer wrote is put on
 * the page with textContent, never parsed as HTML (the page's CSP enforces Trusted Types,
 * so an innerHTML assignment would throw). One customer message is one `Turn`: its bubble,
 * its Idempotency-Key, and the run that answers it.
 */
"use strict";

(() => {
  const root = document.getElementById("chat");
  if (!root) return;

  const config = {
    sessionUrl: root.dataset.sessionUrl,
    threadsUrl: root.dataset.threadsUrl,
    runsUrl: root.dataset.runsUrl,
    maxChars: Number(root.dataset.maxChars) || 4000,
    longPollSeconds: 25,
  };
  const THREAD_KEY = "bookly.threadId";
  const SUPERSEDED_PREFIX = "bookly.superseded."; // + thread id: failed messages a retry replaced
  // While a run is in these, something other than the customer acts next: keep following it.
  const WAITING = new Set(["queued", "in_progress", "awaiting_approval"]);
  const FAILED = new Set(["failed", "expired", "cancelled"]);
  const POLL_MIN_MS = 1000;
  const POLL_MAX_MS = 10000;
  const SLOW_AFTER_MS = 15000; // a reply still awaited after this long gets the "taking longer" note

  // localStorage can be missing or full (private windows): the page still works without it.
  const storage = {
    get(key) {
      try {
        return window.localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        window.localStorage.setItem(key, value);
      } catch {
        /* not persisted: a reload starts a new conversation */
      }
    },
    remove(key) {
      try {
        window.localStorage.removeItem(key);
      } catch {
        /* nothing stored */
      }
    },
  };

  const ui = {
    scroller: byId("conversation"),
    log: byId("messages"),
    typing: byId("typing"),
    slowNote: byId("slow-note"),
    form: byId("composer"),
    input: byId("message-input"),
    notice: byId("notice"),
    noticeText: byId("notice-text"),
    noticeCountdown: byId("notice-countdown"),
    offline: byId("offline-banner"),
    offlineText: byId("offline-text"),
    suggestions: byId("suggestions"),
    newChat: byId("new-chat"),
    handoff: byId("handoff"),
    handoffBanner: byId("handoff-banner"),
    handoffText: byId("handoff-text"),
    progress: byId("typing-progress"),
    typingLabel: document.querySelector("#typing .typing__label"),
  };

  const state = {
    csrf: null,
    threadId: storage.get(THREAD_KEY),
    generation: 0, // bumped by "New chat": work started for an older conversation stops touching the page
    waiting: new Set(), // turns whose run is queued or in progress (drives the typing indicator)
    shownMessages: new Set(),
    openCards: new Set(),
    throttledUntil: 0,
    handedOff: false, // a person has the conversation: their replies arrive on the thread's updates
    following: false, // the updates long-poll is running
    lastMessageId: null, // the newest message this page knows of (where the updates continue from)
  };

  // --- Small helpers ------------------------------------------------------------------------

  function byId(id) {
    return document.getElementById(id);
  }

  /** Build an element. `text` is set with textContent: nothing here is ever parsed as HTML. */
  function el(tag, { className, text, attrs } = {}, children = []) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** A random UUID v4 (crypto.randomUUID needs a secure context; getRandomValues does not). */
  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
  function clock(value) {
    const date = value ? new Date(value) : new Date();
    return Number.isNaN(date.getTime()) ? "" : timeFormat.format(date);
  }

  const moneyFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  function money(value) {
    const amount = Number(value);
    return Number.isFinite(amount) ? moneyFormat.format(amount) : String(value ?? "");
  }

  function supersededIds(threadId) {
    try {
      const ids = JSON.parse(storage.get(SUPERSEDED_PREFIX + threadId) || "[]");
      return new Set(Array.isArray(ids) ? ids : []);
    } catch {
      return new Set();
    }
  }

  function markSuperseded(threadId, messageId) {
    const ids = [...supersededIds(threadId), messageId].slice(-100);
    storage.set(SUPERSEDED_PREFIX + threadId, JSON.stringify(ids));
  }

  // --- The API --------------------------------------------------------------------------------

  class NetworkError extends Error {}
  class TimeoutError extends Error {}

  class ApiError extends Error {
    constructor(response, body) {
      const error = (body && body.error) || {};
      super(error.message || `The server answered ${response.status}.`);
      this.status = response.status;
      this.code = error.code || `http_${response.status}`;
      this.details = error.details || {};
      this.retryAfter = retryAfterSeconds(response.headers.get("Retry-After"), this.details);
    }
  }

  function retryAfterSeconds(header, details) {
    if (header) {
      const seconds = Number(header);
      if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
      const when = Date.parse(header);
      if (!Number.isNaN(when)) return Math.max(1, Math.ceil((when - Date.now()) / 1000));
    }
    return Math.max(1, Number(details.retry_after_seconds) || 5);
  }

  async function csrfToken() {
    if (!state.csrf) {
      const { data } = await api("GET", config.sessionUrl);
      state.csrf = data.csrf_token;
    }
    return state.csrf;
  }

  /**
   * One JSON request. Throws NetworkError (no answer), TimeoutError (our deadline passed)
   * or ApiError (an error answer, in the API's one error shape). A 403 csrf_failed (the
   * session or its token expired) fetches a fresh token from /session and retries once.
   */
  async function api(method, url, { body, headers = {}, timeoutMs = 20000, csrfRetried = false } = {}) {
    const init = { method, credentials: "same-origin", headers: { Accept: "application/json", ...headers } };
    if (method !== "GET") {
      init.headers["X-CSRFToken"] = await csrfToken();
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    init.signal = controller.signal;
    let response;
    let text;
    try {
      response = await fetch(url, init);
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) throw new TimeoutError(`No answer within ${timeoutMs} ms.`);
      net.down();
      throw new NetworkError(error && error.message);
    } finally {
      clearTimeout(timer);
    }
    net.up();
    if (response.status === 304) return { status: 304, data: null, etag: response.headers.get("ETag") };
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (response.ok) return { status: response.status, data, etag: response.headers.get("ETag") };
    const error = new ApiError(response, data);
    if (error.status === 403 && error.code === "csrf_failed" && !csrfRetried) {
      state.csrf = null;
      return api(method, url, { body, headers, timeoutMs, csrfRetried: true });
    }
    throw error;
  }

  function runUrl(runId, wait) {
    return `${config.runsUrl}/${encodeURIComponent(runId)}${wait ? `?wait=${wait}` : ""}`;
  }

  /**
   * GET a run. With a turn, its last copy's ETag goes along: a long-poll then also returns as
   * soon as the run changes at all (a new progress step), and a 304 keeps the copy we have.
   */
  async function runGet(runId, wait = 0, turn = null) {
    const headers = turn && turn.etag && turn.lastRun ? { "If-None-Match": turn.etag } : {};
    const { status, data, etag } = await api("GET", runUrl(runId, wait), { headers, timeoutMs: (wait + 10) * 1000 });
    if (status === 304) return turn.lastRun;
    if (turn) {
      turn.etag = etag;
      turn.lastRun = data;
    }
    return data;
  }

  // --- Connection state: the offline banner ------------------------------------------------

  const net = {
    failures: 0,
    down() {
      this.failures += 1;
      showOffline();
    },
    up() {
      this.failures = 0;
      ui.offline.hidden = true;
    },
    /** Resolves when it is worth trying again: back online, or after a growing pause. */
    pause() {
      const delay = Math.min(POLL_MIN_MS * 2 ** Math.max(0, this.failures - 1), POLL_MAX_MS);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          window.removeEventListener("online", done);
          resolve();
        };
        const timer = setTimeout(done, delay);
        window.addEventListener("online", done);
      });
    },
  };

  function showOffline() {
    ui.offlineText.textContent = navigator.onLine
      ? "We can't reach Bookly right now. We'll keep trying, and nothing you've written is lost."
      : "You're offline. We'll send your messages and fetch replies as soon as you're back online.";
    ui.offline.hidden = false;
  }

  window.addEventListener("offline", showOffline);
  window.addEventListener("online", () => {
    // Probe once, so the banner goes away even when nothing else is waiting to be sent.
    api("GET", config.sessionUrl)
      .then(({ data }) => {
        state.csrf = data.csrf_token;
      })
      .catch(() => {});
  });

  // --- Notices (throttling, expired session) -------------------------------------------------

  let noticeTimer = null;

  function showNotice(text, { kind = "info", countdownUntil = 0, hideAfterMs = 0 } = {}) {
    clearInterval(noticeTimer);
    ui.notice.dataset.kind = kind;
    ui.noticeText.textContent = text;
    ui.noticeCountdown.textContent = "";
    ui.notice.hidden = false;
    if (countdownUntil) {
      const tick = () => {
        const left = Math.ceil((countdownUntil - Date.now()) / 1000);
        ui.noticeCountdown.textContent = left > 0 ? `Trying again in ${left} s.` : "Sending now…";
      };
      tick();
      noticeTimer = setInterval(tick, 1000);
    } else if (hideAfterMs) {
      noticeTimer = setTimeout(() => hideNotice(kind), hideAfterMs);
    }
  }

  function hideNotice(kind) {
    if (kind && ui.notice.dataset.kind !== kind) return;
    clearInterval(noticeTimer);
    ui.notice.hidden = true;
  }

  /** 429: say so, wait out Retry-After (shared by every message that hit it), then go on. */
  async function throttledPause(seconds) {
    state.throttledUntil = Math.max(state.throttledUntil, Date.now() + seconds * 1000);
    showNotice("You're sending messages too fast. We're holding on to your message and will send it for you.", {
      kind: "throttled",
      countdownUntil: state.throttledUntil,
    });
    while (Date.now() < state.throttledUntil) {
      await sleep(Math.min(1000, state.throttledUntil - Date.now()));
    }
  }

  // --- The conversation on the page ------------------------------------------------------------

  // Keep the newest message in view while the customer is at the bottom of the conversation
  // (new messages, the typing indicator, a notice squeezing the pane), but leave them where
  // they are if they scrolled up to read.
  let pinned = true;
  function scrollToEnd(force = false) {
    if (force || pinned) {
      ui.scroller.scrollTop = ui.scroller.scrollHeight;
      pinned = true;
    }
  }
  ui.scroller.addEventListener("scroll", () => {
    pinned = ui.scroller.scrollHeight - ui.scroller.scrollTop - ui.scroller.clientHeight < 48;
  });
  if ("ResizeObserver" in window) {
    const keepPinned = new ResizeObserver(() => scrollToEnd());
    for (const node of [ui.scroller, ui.log, ui.typing]) keepPinned.observe(node);
  }

  function updateChrome() {
    ui.typing.hidden = state.waiting.size === 0;
    // The latest fixed step the server wrote for a run we are waiting on ("Looking up your order").
    const steps = [...state.waiting].map((turn) => turn.progress).filter(Boolean);
    ui.progress.textContent = steps.length ? steps[steps.length - 1] : "";
    const withTeam = [...state.waiting].some((turn) => turn.awaitingApproval);
    ui.typingLabel.textContent = withTeam ? "Your return is with our team" : "Bookly is typing…";
    updateSlowNote();
    const hasMessages = ui.log.querySelector(".msg--user, .msg--bot:not(.msg--welcome)") !== null;
    ui.suggestions.hidden = hasMessages;
    root.classList.toggle("chat--active", hasMessages);
  }

  let slowTimer = null;

  /** "Taking longer than usual": shown once the longest-waiting reply has waited SLOW_AFTER_MS. */
  function updateSlowNote() {
    clearTimeout(slowTimer);
    ui.slowNote.hidden = true;
    // A return waiting for our team is expected to take a while: it has its own label.
    const working = [...state.waiting].filter((turn) => !turn.awaitingApproval);
    if (working.length === 0) return;
    const since = Math.min(...working.map((turn) => turn.waitingSince));
    const left = since + SLOW_AFTER_MS - Date.now();
    if (left > 0) slowTimer = setTimeout(updateSlowNote, left);
    else ui.slowNote.hidden = false;
  }

  function messageRow(role, content, createdAt, author = null) {
    const staff = role === "staff";
    const who = role === "user" ? "You said:" : staff ? `${author} from Bookly support said:` : "Bookly said:";
    const kind = role === "user" ? "msg--user" : staff ? "msg--bot msg--staff" : "msg--bot";
    const row = el("div", { className: `msg ${kind}` });
    const bubble = el("div", { className: "msg__bubble" }, [
      el("span", { className: "visually-hidden", text: who }),
      staff ? el("p", { className: "msg__author", text: `${author} · Bookly support`, attrs: { "aria-hidden": "true" } }) : null,
      el("p", { className: "msg__text", text: content }),
    ]);
    const meta = el("div", { className: "msg__meta" }, [
      el("time", { text: clock(createdAt), attrs: createdAt ? { datetime: createdAt } : {} }),
    ]);
    row.append(bubble, meta);
    return row;
  }

  function appendAssistant(message) {
    if (!message || state.shownMessages.has(message.id)) return;
    state.shownMessages.add(message.id);
    state.lastMessageId = message.id;
    const row = messageRow(message.role, message.content, message.created_at, message.author);
    row.dataset.messageId = message.id;
    ui.log.append(row);
    updateChrome();
    scrollToEnd();
  }

  function appendDivider(text) {
    ui.log.append(el("p", { className: "divider", text }));
  }

  /** One customer message: its bubble, its Idempotency-Key, and the run answering it. */
  class Turn {
    constructor(content, { messageId = null, createdAt = null } = {}) {
      this.content = content;
      this.key = newKey();
      this.messageId = messageId;
      this.runId = null;
      this.generation = state.generation;
      this.decided = new Set(); // action ids answered from this page
      this.etag = null; // of the last copy of the run, sent as If-None-Match on the next long-poll
      this.lastRun = null;
      this.progress = ""; // the run's latest step, shown under the typing indicator
      this.card = null; // the confirmation card this page answered for this turn
      this.awaitingApproval = false;
      this.quiet = false; // a pending confirmation the customer moved on from: no error noise
      this.row = messageRow("user", content, createdAt);
      this.status = el("span", { className: "msg__status" });
      this.row.querySelector(".msg__meta").append(this.status);
      this.problem = el("div", { className: "msg__problem", attrs: { role: "alert" } });
      this.problem.hidden = true;
      this.row.append(this.problem);
      if (messageId) this.remember(messageId);
      ui.log.append(this.row);
      updateChrome();
      scrollToEnd(!messageId);
    }

    get current() {
      return this.generation === state.generation;
    }

    remember(messageId) {
      this.messageId = messageId;
      state.lastMessageId = messageId;
      this.row.dataset.messageId = messageId;
      state.shownMessages.add(messageId);
    }

    setStatus(text) {
      this.status.textContent = text;
    }

    clearProblem() {
      this.problem.hidden = true;
      this.problem.replaceChildren();
      this.row.classList.remove("msg--failed");
    }

    showProblem(title, detail, retry, label = "Try again") {
      this.row.classList.add("msg--failed");
      const button = el("button", { className: "btn btn--small", text: label, attrs: { type: "button" } });
      button.addEventListener("click", () => {
        button.disabled = true;
        retry();
        ui.input.focus();
      });
      this.problem.replaceChildren(
        el("p", { className: "msg__problem-title", text: title }),
        detail ? el("p", { className: "msg__problem-detail", text: detail }) : null,
        button,
      );
      this.problem.hidden = false;
      scrollToEnd();
    }
  }

  // --- Sending ------------------------------------------------------------------------------

  let threadCreation = null;

  function ensureThread() {
    if (state.threadId) return Promise.resolve(state.threadId);
    if (!threadCreation) {
      threadCreation = api("POST", config.threadsUrl)
        .then(({ data }) => {
          state.threadId = data.id;
          storage.set(THREAD_KEY, data.id);
          return data.id;
        })
        .finally(() => {
          threadCreation = null;
        });
    }
    return threadCreation;
  }

  function forgetThread() {
    if (state.threadId) storage.remove(SUPERSEDED_PREFIX + state.threadId);
    storage.remove(THREAD_KEY);
    state.threadId = null;
  }

  function threadExpired() {
    forgetThread();
    showNotice("Your earlier conversation has expired, so we've started a new one.", { kind: "session" });
  }

  async function send(content) {
    const declined = declineOpenCards();
    const accepted = await post(new Turn(content));
    for (const controls of declined) {
      if (accepted) followDeclined(controls);
      else reopenCard(controls);
    }
  }

  /**
   * POST the turn's message until it is accepted (true) or fails for good (false). Every retry
   * here (network, 429, 409, an expired thread) re-sends the same content with the same
   * Idempotency-Key, so the server stores it once however often the request is repeated.
   */
  async function post(turn) {
    turn.clearProblem();
    turn.setStatus("Sending…");
    let expiredOnce = false;
    let conflicts = 0;
    for (;;) {
      if (!turn.current) return false;
      try {
        const threadId = await ensureThread();
        const { data } = await api("POST", `${config.threadsUrl}/${threadId}/messages`, {
          body: { content: turn.content },
          headers: { "Idempotency-Key": turn.key },
        });
        if (!turn.current) return false;
        turn.remember(data.message.id);
        turn.setStatus("");
        if (state.throttledUntil <= Date.now()) hideNotice("throttled");
        watch(turn, data.run);
        return true;
      } catch (error) {
        if (error instanceof NetworkError || error instanceof TimeoutError) {
          turn.setStatus("Waiting for a connection…");
          await net.pause();
        } else if (error.status === 429) {
          turn.setStatus("Waiting to send…");
          await throttledPause(error.retryAfter);
          turn.setStatus("Sending…");
        } else if (error.status === 404 && !expiredOnce) {
          expiredOnce = true;
          threadExpired();
          appendDivider("New conversation");
          ui.log.append(turn.row);
        } else if (error.status === 409 && error.code === "idempotency_in_progress" && conflicts < 5) {
          conflicts += 1;
          await sleep(POLL_MIN_MS);
        } else if (error.status === 409 && error.code === "thread_closed") {
          showThreadClosed(turn);
          return false;
        } else {
          turn.setStatus("Not sent");
          turn.showProblem("Your message wasn't sent.", friendlySendError(error), () => post(turn));
          return false;
        }
      }
    }
  }

  /** The conversation has ended (a turn or token bound): trying again cannot help, a new chat can. */
  function showThreadClosed(turn) {
    turn.setStatus("Not sent");
    turn.showProblem(
      "This conversation has ended.",
      "Start a new chat and we'll send your message there.",
      () => {
        startOver();
        send(turn.content);
      },
      "Start a new chat",
    );
  }

  function friendlySendError(error) {
    if (error.status === 400 && error.details && error.details.fields && error.details.fields.content) {
      return `Messages can be up to ${config.maxChars} characters long.`;
    }
    if (error.status >= 500) return "Something went wrong on our side. Your message is kept here; please try again.";
    return error.message;
  }

  // --- Waiting for the reply ------------------------------------------------------------------

  /**
   * Follow a run until it leaves queued/in_progress: long-poll (?wait=25) first; if a
   * long-poll fails (timeout, server error, a proxy that cuts it) fall back to plain polling
   * every 1 s, 2 s, 4 s … at most 10 s. Offline, wait for the connection to come back.
   */
  async function watch(turn, run) {
    turn.runId = run.id;
    turn.waitingSince = Date.now();
    state.waiting.add(turn);
    updateChrome();
    let longPoll = true;
    let delay = POLL_MIN_MS;
    try {
      while (turn.current && mustKeepWaiting(turn, run)) {
        showRunState(turn, run);
        try {
          if (longPoll && WAITING.has(run.status)) {
            run = await runGet(run.id, config.longPollSeconds, turn);
          } else {
            await sleep(delay);
            delay = Math.min(delay * 2, POLL_MAX_MS);
            run = await runGet(run.id);
          }
        } catch (error) {
          if (error instanceof NetworkError && !navigator.onLine) {
            await net.pause();
          } else if (error instanceof ApiError && error.status === 404) {
            run = { ...run, status: "failed", error: { code: "session_expired", message: "" } };
          } else {
            longPoll = false;
          }
        }
      }
    } finally {
      state.waiting.delete(turn);
      updateChrome();
    }
    if (turn.current) settle(turn, run);
  }

  /** What the customer sees while a run works: its latest step, and a confirmed return waiting for staff. */
  function showRunState(turn, run) {
    turn.progress = WAITING.has(run.status) ? run.progress || "" : "";
    turn.awaitingApproval = run.status === "awaiting_approval";
    if (run.status === "awaiting_approval" && turn.card) {
      turn.card.awaited = true;
      turn.card.setOutcome("Confirmed. Waiting for our team to approve this return.", "awaiting");
    }
    updateChrome();
  }

  function mustKeepWaiting(turn, run) {
    if (WAITING.has(run.status)) return true;
    // Our decision was accepted but this read predates it: keep polling, don't show the card again.
    const action = run.required_action;
    return run.status === "requires_action" && action && turn.decided.has(action.id);
  }

  function settle(turn, run) {
    if (turn.card && turn.card.awaited && run.status === "completed") {
      turn.card.setOutcome("Confirmed. Our team's decision is below.", "decided");
    }
    if (run.handed_off) enterHandoff();
    if (run.status === "completed") {
      appendAssistant(run.assistant_message);
    } else if (run.status === "requires_action") {
      showActionCard(turn, run);
    } else if (FAILED.has(run.status) && !turn.quiet) {
      const error = run.error || {};
      if (error.code === "session_expired") {
        threadExpired();
        turn.showProblem("Your session expired before the reply arrived.", "Send it again to start a new conversation.", () => retryAsNew(turn));
        return;
      }
      turn.showProblem(failureTitle(error.code), error.message || "", () => retryAsNew(turn));
    }
  }

  const FAILURE_TITLES = {
    model_unavailable: "Our assistant is unavailable right now, so we couldn't answer.",
    timeout: "The reply took too long, so we stopped waiting for it.",
    worker_lost: "We lost track of the reply to this message.",
    queue_timeout: "We couldn't get to this message in time.",
    cancelled: "This message was cancelled before it was answered.",
  };

  function failureTitle(code) {
    return FAILURE_TITLES[code] || "Sorry, we couldn't answer this message.";
  }

  /**
   * Retry after a failed run: the message was stored, so this is a NEW message (new key)
   * with the same text, shown in the same bubble. The failed one is remembered as replaced,
   * so a reload does not show the text twice either.
   */
  function retryAsNew(turn) {
    if (turn.messageId && state.threadId) markSuperseded(state.threadId, turn.messageId);
    turn.key = newKey();
    turn.messageId = null;
    delete turn.row.dataset.messageId;
    ui.log.append(turn.row); // the retried message goes to the end, where its reply will appear
    scrollToEnd(true);
    post(turn);
  }

  // --- The confirmation card (run.status === "requires_action") -------------------------------

  const EXPIRED_TEXT = "This confirmation has expired. Send a message if you still want to return these items.";

  /** The card of one return preview: its row and the parts that change (buttons, outcome, expiry). */
  function actionCardBuild(action) {
    const preview = action.preview || {};
    const titleId = `action-title-${action.id}`;

    const items = el(
      "ul",
      { className: "card__items", attrs: { "aria-label": "Items to return" } },
      (preview.items || []).map((item) =>
        el("li", {}, [el("span", { className: "card__item-title", text: item.title }), el("span", { className: "card__item-price", text: money(item.price) })]),
      ),
    );
    const facts = el("dl", { className: "card__facts" }, [
      el("dt", { text: "Refund" }),
      el("dd", { className: "card__refund", text: money(preview.refund_amount) }),
      el("dt", { text: "Refunded to" }),
      el("dd", { className: "card__method", text: preview.refund_method || "" }),
    ]);
    const confirm = el("button", { className: "btn btn--primary", text: "Confirm return", attrs: { type: "button" } });
    const decline = el("button", { className: "btn btn--secondary", text: "Cancel return", attrs: { type: "button" } });
    const outcome = el("p", { className: "card__outcome", attrs: { role: "status" } });
    const expiry = el("p", { className: "card__expiry" });

    const card = el("section", { className: "card", attrs: { "aria-labelledby": titleId, "data-action-id": action.id } }, [
      el("h2", { className: "card__title", text: "Please confirm your return", attrs: { id: titleId } }),
      preview.order_id ? el("p", { className: "card__order", text: `Order ${preview.order_id}` }) : null,
      preview.summary ? el("p", { className: "card__summary", text: preview.summary }) : null,
      items,
      facts,
      expiry,
      el("div", { className: "card__buttons" }, [confirm, decline]),
      outcome,
    ]);
    const row = el("div", { className: "msg msg--bot msg--card" }, [
      el("span", { className: "visually-hidden", text: "Bookly asks you to confirm:" }),
      card,
    ]);
    return { row, card, confirm, decline, outcome, expiry };
  }

  function cardShown(action) {
    return document.querySelector(`[data-action-id="${CSS.escape(action.id)}"]`) !== null;
  }

  function showActionCard(turn, run) {
    const action = run.required_action;
    if (!action) {
      turn.showProblem("We need your confirmation, but couldn't load the details.", "Please send your request again.", () => retryAsNew(turn));
      return;
    }
    if (cardShown(action)) return;
    const { row, card, confirm, decline, outcome, expiry } = actionCardBuild(action);
    ui.log.append(row);

    const controls = {
      turn,
      run,
      action,
      setEnabled(enabled) {
        confirm.disabled = !enabled;
        decline.disabled = !enabled;
      },
      setOutcome(text, kind) {
        outcome.textContent = text;
        card.dataset.outcome = kind;
      },
      /** Answered, declined or expired: no more buttons, and no "Please confirm by" either. */
      close() {
        state.openCards.delete(controls);
        clearTimeout(expiryTimer);
        expiry.textContent = "";
      },
      /** Open for an answer (again, after an answer that could not be sent). */
      open() {
        state.openCards.add(controls);
        controls.setEnabled(true);
        const expiresAt = action.expires_at ? Date.parse(action.expires_at) : NaN;
        if (Number.isNaN(expiresAt)) return;
        if (expiresAt <= Date.now()) {
          expire();
        } else {
          expiry.textContent = `Please confirm by ${clock(action.expires_at)}.`;
          clearTimeout(expiryTimer);
          expiryTimer = setTimeout(expire, Math.min(expiresAt - Date.now(), 2 ** 31 - 1));
        }
      },
    };
    let expiryTimer = null;
    const expire = () => {
      controls.close();
      controls.setEnabled(false);
      controls.setOutcome(EXPIRED_TEXT, "expired");
    };
    confirm.addEventListener("click", () => decide(controls, "confirm"));
    decline.addEventListener("click", () => decide(controls, "decline"));
    controls.open();
    updateChrome();
    scrollToEnd();
  }

  const DECIDED_OUTCOMES = {
    confirmed: ["Return confirmed", "confirmed"],
    declined: ["Return cancelled", "cancelled"],
    expired: [EXPIRED_TEXT, "expired"],
    rejected: ["We couldn't start this return.", "error"],
  };

  /** After a reload: the card of a confirmation already decided, with its outcome and no live buttons. */
  function showDecidedCard(action) {
    if (cardShown(action)) return;
    const { row, card, confirm, decline, outcome } = actionCardBuild(action);
    const [text, kind] = DECIDED_OUTCOMES[action.decision] || ["", ""];
    confirm.disabled = true;
    decline.disabled = true;
    outcome.textContent = text;
    card.dataset.outcome = kind;
    ui.log.append(row);
  }

  async function decide(controls, decision) {
    const { turn, run, action } = controls;
    controls.setEnabled(false);
    controls.close();
    controls.setOutcome("Sending your answer…", "pending");
    turn.decided.add(action.id);
    try {
      const { data } = await api("POST", `${runUrl(run.id)}/actions/${encodeURIComponent(action.id)}`, {
        body: { decision },
      });
      controls.setOutcome(decision === "confirm" ? "Return confirmed" : "Return cancelled", decision === "confirm" ? "confirmed" : "cancelled");
      turn.card = controls;
      ui.input.focus();
      watch(turn, data || run); // the run goes on: long-poll it for the final reply
    } catch (error) {
      turn.decided.delete(action.id);
      if (error instanceof NetworkError || error instanceof TimeoutError || error.status >= 500) {
        controls.setOutcome("We couldn't send your answer. Please check your connection and try again.", "error");
        controls.open();
      } else {
        controls.setOutcome(error.message || "This confirmation can no longer be answered.", "error");
      }
      ui.input.focus();
    }
  }

  /**
   * A new message while a confirmation is open declines it (DESIGN §4): the server does that
   * when it accepts the message. The card says so at once; once the message is accepted the
   * paused run is followed to its own short reply, which comes before the new message's.
   */
  function declineOpenCards() {
    const declined = [...state.openCards];
    for (const controls of declined) {
      controls.close();
      controls.setEnabled(false);
      controls.setOutcome("Return not confirmed: you sent a new message instead.", "cancelled");
      controls.turn.decided.add(controls.action.id);
      controls.turn.quiet = true;
    }
    return declined;
  }

  async function followDeclined(controls) {
    try {
      watch(controls.turn, await runGet(controls.run.id));
    } catch {
      /* the new message's reply is what the customer waits for */
    }
  }

  /** The new message was never accepted, so nothing was declined: the card is live again. */
  function reopenCard(controls) {
    controls.turn.decided.delete(controls.action.id);
    controls.turn.quiet = false;
    controls.setOutcome("", "");
    controls.open();
  }

  // --- Loading a stored conversation ---------------------------------------------------------

  async function messagesLoad(threadId) {
    const messages = [];
    let after = null;
    for (;;) {
      const query = after ? `?limit=100&after=${encodeURIComponent(after)}` : "?limit=100";
      const { data } = await api("GET", `${config.threadsUrl}/${threadId}/messages${query}`);
      messages.push(...data.results);
      if (!data.has_more || data.results.length === 0) return messages;
      after = data.results[data.results.length - 1].id;
    }
  }

  async function withRetries(work) {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof NetworkError || error instanceof TimeoutError || error.status >= 500)) throw error;
        await net.pause();
      }
    }
  }

  async function resume() {
    const threadId = state.threadId;
    let messages;
    try {
      messages = await withRetries(() => messagesLoad(threadId));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        threadExpired();
        return;
      }
      throw error;
    }
    const superseded = supersededIds(threadId);
    const visible = messages.filter((message) => !superseded.has(message.id));
    const lastReply = visible.map((message) => message.role !== "user").lastIndexOf(true);
    const unanswered = [];
    visible.forEach((message, index) => {
      if (message.role !== "user") {
        appendAssistant(message);
      } else if (index > lastReply) {
        unanswered.push(new Turn(message.content, { messageId: message.id, createdAt: message.created_at }));
      } else {
        state.shownMessages.add(message.id);
        const row = messageRow("user", message.content, message.created_at);
        row.dataset.messageId = message.id;
        ui.log.append(row);
      }
      if (message.action) showDecidedCard(message.action);
    });
    if (visible.length) state.lastMessageId = visible[visible.length - 1].id;
    withRetries(() => api("GET", `${config.threadsUrl}/${threadId}`))
      .then(({ data }) => {
        if (data.handoff && threadId === state.threadId) enterHandoff(data);
      })
      .catch(() => {});
    updateChrome();
    scrollToEnd(true);
    // Messages after the last reply may still be waiting, waiting for a confirmation, or failed.
    for (const turn of unanswered) {
      withRetries(() => api("GET", `${config.threadsUrl}/${threadId}/messages/${turn.messageId}/status`))
        .then(({ data }) => withRetries(() => runGet(data.run_id)))
        .then((run) => watch(turn, run))
        .catch(() => turn.showProblem("We couldn't check on this message.", "", () => retryAsNew(turn)));
    }
  }

  // --- Talking to a person (handoff) -------------------------------------------------------------

  function handoffText(handoff) {
    const hours = handoff && handoff.reply_within_hours;
    return hours
      ? `You're talking with our support team. A person will reply here, usually within ${hours} hours.`
      : "You're talking with our support team. A person will reply here.";
  }

  /**
   * A person has the conversation. Their replies are not answers to one run, so the page
   * long-polls the thread's updates (new messages, or the thread handed back) instead.
   */
  function enterHandoff(thread = null) {
    if (!state.handedOff || thread) ui.handoffText.textContent = handoffText(thread && thread.handoff);
    state.handedOff = true;
    ui.handoffBanner.hidden = false;
    ui.handoff.disabled = true;
    ui.handoff.textContent = "Waiting for a person";
    if (!thread) {
      // Told by a run: fetch how long the wait is likely to be.
      api("GET", `${config.threadsUrl}/${state.threadId}`)
        .then(({ data }) => {
          if (data.handoff && state.handedOff) ui.handoffText.textContent = handoffText(data.handoff);
        })
        .catch(() => {});
    }
    followThread();
  }

  function leaveHandoff() {
    state.handedOff = false;
    ui.handoffBanner.hidden = true;
    ui.handoff.disabled = false;
    ui.handoff.textContent = "Talk to a person";
  }

  async function followThread() {
    if (state.following) return;
    state.following = true;
    const generation = state.generation;
    const threadId = state.threadId;
    try {
      while (state.handedOff && generation === state.generation) {
        const after = state.lastMessageId ? `&after=${encodeURIComponent(state.lastMessageId)}` : "";
        let data;
        try {
          ({ data } = await api("GET", `${config.threadsUrl}/${threadId}/updates?wait=${config.longPollSeconds}${after}`, {
            timeoutMs: (config.longPollSeconds + 10) * 1000,
          }));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return;
          await net.pause();
          continue;
        }
        if (generation !== state.generation) return;
        for (const message of data.messages) {
          if (message.role === "user") {
            state.shownMessages.add(message.id);
            state.lastMessageId = message.id;
          } else {
            appendAssistant(message);
          }
        }
        if (!data.thread.handoff) leaveHandoff();
      }
    } finally {
      state.following = false;
    }
  }

  async function askForPerson() {
    ui.handoff.disabled = true;
    try {
      const threadId = await ensureThread();
      const { data } = await api("POST", `${config.threadsUrl}/${threadId}/handoff`);
      if (data.message) appendAssistant(data.message);
      enterHandoff(data.thread);
    } catch (error) {
      ui.handoff.disabled = false;
      showNotice(error.message || "We couldn't reach our team just now. Please try again.", { kind: "handoff", hideAfterMs: 8000 });
    }
    ui.input.focus();
  }

  // --- Wiring -----------------------------------------------------------------------------------

  function submit() {
    const content = ui.input.value.trim();
    if (!content) {
      ui.input.focus();
      return;
    }
    if (content.length > config.maxChars) {
      showNotice(`Messages can be up to ${config.maxChars} characters long.`, { kind: "length", hideAfterMs: 6000 });
      return;
    }
    ui.input.value = "";
    autosize();
    send(content);
    ui.input.focus();
  }

  function autosize() {
    ui.input.style.height = "auto";
    ui.input.style.height = `${Math.min(ui.input.scrollHeight, 160)}px`;
  }

  function startOver() {
    state.generation += 1;
    leaveHandoff();
    state.waiting.clear();
    state.openCards.clear();
    state.shownMessages.clear();
    forgetThread();
    hideNotice();
    for (const node of [...ui.log.children]) if (!node.classList.contains("msg--welcome")) node.remove();
    updateChrome();
    ui.input.focus();
  }

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  ui.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  ui.input.addEventListener("input", autosize);
  ui.input.maxLength = config.maxChars;
  ui.suggestions.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-question]");
    if (!button) return;
    send(button.dataset.question);
    ui.input.focus();
  });
  ui.newChat.addEventListener("click", startOver);
  ui.handoff.addEventListener("click", askForPerson);

  async function start() {
    if (!navigator.onLine) showOffline();
    try {
      const { data } = await withRetries(() => api("GET", config.sessionUrl));
      state.csrf = data.csrf_token;
      if (state.threadId) await resume();
    } finally {
      root.dataset.ready = "true";
      updateChrome();
    }
  }

  ui.input.focus();
  start().catch(() => {
    showNotice("We couldn't load your conversation. Please reload the page.", { kind: "load" });
  });
})();
