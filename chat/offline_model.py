"""The deterministic demo model: speaks the Messages API's content-block format.

It reads the conversation like a careful agent would (what the customer asked, which order
id and email they gave, what the tools answered), emits `tool_use` blocks, builds its
text only from `tool_result`s and the customer's own words, and ends every turn through the
send_reply step with the reply's intent. It goes through the same loop
and every guardrail as Claude. It is a demo, labelled as such to customers.
"""

import json
import re
from dataclasses import dataclass, field

from chat.prompts import REFUSAL_TEMPLATE
from chat.tools import REPLY_TOOL
from orders.policy import REFUND_METHOD, REFUND_TIMELINE

NAME = "bookly-offline-demo"

_ORDER_ID = re.compile(r"\bBK-\d{4,6}\b", re.I)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|howdy)\b", re.I)
_RETURN = re.compile(r"\b(return|refund|send (it|them|this|these) back|exchange)\b", re.I)
_RETURN_POLICY = re.compile(r"\b(policy|how (do|does|can)|can i|what is|what's)\b", re.I)
_STATUS = re.compile(r"\b(where|status|track|tracking|arrive|arriving|shipped|deliver(ed|y)?|my order)\b", re.I)
_LIST = re.compile(r"\b(my orders|other orders?|which orders?|all (of )?my orders|both orders|two orders)\b", re.I)
_REFUND_WHEN = re.compile(
    r"\b(when|how long|how soon)\b.{0,40}\brefund|\brefund\b.{0,30}\b(arrive|take|come|get)\b", re.I
)
_PERSON = re.compile(r"\b(human|person|real agent|live agent|representative|someone real|staff member)\b", re.I)
_POLICY_PATTERNS = (
    ("password_reset", re.compile(r"\b(password|log ?in|sign ?in)\b", re.I)),
    ("shipping", re.compile(r"\b(shipping|postage|how long does (it|delivery|shipping) take|delivery time)\b", re.I)),
    ("returns_overview", re.compile(r"\b(return policy|refund policy|returns policy|how do returns work)\b", re.I)),
)
_POLICY_INTROS = {
    "shipping": "Here is our shipping policy",
    "password_reset": "Here is how to reset your password",
    "returns_overview": "Here is our return policy",
}
_ORDER_NUMBER_AND_EMAIL = (
    "I need your order number (it starts with BK- followed by 4 to 6 digits) and the email address on the order."
)
_ASK_FOR_RETURN = f"To start a return, {_ORDER_NUMBER_AND_EMAIL}"
_ASK_FOR_LOOKUP = f"To look up your order, {_ORDER_NUMBER_AND_EMAIL}"
_ITEM_REASONS = {
    "already_returned": "has already been returned",
    "item_not_returnable": "cannot be returned under our policy",
}
_REFUND_WHEN_ANSWER = f"Refunds go back to your {REFUND_METHOD} {REFUND_TIMELINE}."
# What the customer is told when a tool says no: fixed sentences, never the tool's own message
# (those are instructions written for the model, not for customers).
_TOOL_ERRORS = {
    "order_not_found": "I couldn't find an order with that order number and email address. "
    "Could you double-check both?",
    "invalid_order_id": "That doesn't look like one of our order numbers. They start with BK- followed by "
    "4 to 6 digits.",
    "invalid_email": "That doesn't look like a complete email address. Could you check it?",
    "tool_not_allowed": "I'm sorry, I can't do that in chat right now.",
    "returns_disabled": "I'm sorry, returns can't be started in chat right now.",
    "identity_mismatch": "I'm sorry, this chat is already linked to another email address, so I can only help "
    "with that customer's orders here. Please start a new chat for a different account.",
    "identity_not_verified": f"To help with that, {_ORDER_NUMBER_AND_EMAIL}",
    "eligibility_not_verified": "I need to check whether that order can be returned first. Could you ask me "
    "to return it again?",
    "return_pending": "A return for this order is already waiting for a decision, so I haven't started another.",
    "return_limit_exceeded": "I'm sorry, no more returns can be started in this chat.",
    "item_not_in_order": "I'm sorry, I couldn't match those items to the order, so no return was started.",
    "item_not_returnable": "I'm sorry, those items can't be returned under our policy.",
    "already_returned": "Those items have already been returned, so no new return was started.",
    "order_not_delivered": "That order hasn't been delivered yet, so it can't be returned yet.",
    "outside_return_window": "I'm sorry, the return window for that order has closed.",
    "nothing_returnable": "I'm sorry, nothing in that order can be returned.",
    "refund_exceeds_limit": 'This refund is more than I can start in chat. To have a person help, choose "Talk to '
    'a person" at the top of this chat.',
    "confirmation_expired": "The confirmation timed out, so I haven't started the return and nothing was "
    "changed. Just ask again if you still want to return it.",
    "approval_expired": "Our team couldn't review your return in time, so it wasn't started and nothing was "
    "changed. You can ask again, or talk to a person.",
    "effect_changed": "Something about the order changed before the return could be started, so nothing was "
    "changed. Please ask again and I'll check it afresh.",
}
_TOOL_ERROR_DEFAULT = "I'm sorry, I couldn't do that right now. Please try again in a moment."
# The reply step's intent after each tool's result.
_INTENTS = {
    "lookup_policy": "policy",
    "lookup_order": "order_status",
    "list_customer_orders": "order_status",
    "check_return_eligibility": "return",
    "initiate_return": "return",
}
_ELIGIBILITY_REASONS = {
    "order_not_delivered": "it has not been delivered yet, so it cannot be returned",
    "outside_return_window": "its return window ended on {window_ends}",
    "nothing_returnable": "none of its items can be returned",
}


def _reply(intent: str, message: str, turn: int, **extra: str) -> list[dict]:
    """The turn's end: a send_reply call naming the reply's intent, as the prompt asks of Claude."""
    tool_input = {"intent": intent, "message": message, **extra}
    return [{"type": "tool_use", "id": f"toolu_offline_reply_{turn:04d}", "name": REPLY_TOOL, "input": tool_input}]


def _blocks(message: dict) -> list[dict]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _payload(block: dict) -> dict:
    content = block.get("content")
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if part.get("type") == "text")
    try:
        payload = json.loads(content or "{}")
    except (TypeError, ValueError):
        return {}
    return payload if isinstance(payload, dict) else {}


@dataclass
class Conversation:
    """What the model can read off the messages: the customer's words and the tools' answers."""

    customer_texts: list[str] = field(default_factory=list)
    tool_inputs: dict[str, tuple[str, dict]] = field(default_factory=dict)  # tool_use id → (name, input)
    verified_email: str | None = None
    last_assistant_text: str = ""

    @classmethod
    def read(cls, messages: list[dict]) -> "Conversation":
        conversation = cls()
        for message in messages:
            for block in _blocks(message):
                kind = block.get("type")
                if kind == "text" and message["role"] == "user":
                    conversation.customer_texts.append(block["text"])
                elif kind == "text":
                    conversation.last_assistant_text = block["text"]
                elif kind == "tool_use":
                    conversation.tool_inputs[block["id"]] = (block["name"], block.get("input") or {})
                elif kind == "tool_result" and not block.get("is_error"):
                    name, tool_input = conversation.tool_inputs.get(block["tool_use_id"], ("", {}))
                    if name in ("lookup_order", "check_return_eligibility") and tool_input.get("customer_email"):
                        conversation.verified_email = tool_input["customer_email"]
        return conversation

    def latest(self, pattern: re.Pattern) -> str | None:
        for text in reversed(self.customer_texts):
            found = pattern.findall(text)
            if found:
                return found[-1]
        return None


class OfflineModel:
    name = NAME

    def complete(self, request: dict, *, deadline: float | None = None) -> dict:
        messages = request["messages"]
        conversation = Conversation.read(messages)
        last = _blocks(messages[-1])
        results = [block for block in last if block.get("type") == "tool_result"]
        turn = len(messages)
        content = (
            self._after_tools(results, conversation, turn)
            if results
            else self._answer(
                conversation.customer_texts[-1] if conversation.customer_texts else "", conversation, turn
            )
        )
        stop_reason = "tool_use" if any(block["type"] == "tool_use" for block in content) else "end_turn"
        return {
            "id": f"msg_offline_{turn:04d}",
            "type": "message",
            "role": "assistant",
            "model": NAME,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 0,
                "output_tokens": 0,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        }

    # --- a customer message --------------------------------------------------------------

    def _answer(self, text: str, conversation: Conversation, turn: int) -> list[dict]:
        def call(name: str, tool_input: dict) -> list[dict]:
            return [{"type": "tool_use", "id": f"toolu_offline_{turn:04d}", "name": name, "input": tool_input}]

        if _PERSON.search(text):
            # The agent answers a handoff with its own fixed message and hands the thread to a person.
            return _reply("handoff", "The customer asked for a person.", turn)
        if _REFUND_WHEN.search(text):
            return _reply("policy", _REFUND_WHEN_ANSWER, turn)
        for topic, pattern in _POLICY_PATTERNS:
            if pattern.search(text):
                return call("lookup_policy", {"topic": topic})
        order_id = conversation.latest(_ORDER_ID)
        email = conversation.latest(_EMAIL)
        wants_return = bool(_RETURN.search(text)) or (
            conversation.last_assistant_text == _ASK_FOR_RETURN and bool(_ORDER_ID.search(text) or _EMAIL.search(text))
        )
        if wants_return and not order_id and not email and _RETURN_POLICY.search(text):
            return call("lookup_policy", {"topic": "returns_overview"})
        if _LIST.search(text) and conversation.verified_email:
            return call("list_customer_orders", {"customer_email": conversation.verified_email})
        wants_status = wants_return is False and (
            bool(_STATUS.search(text)) or bool(_ORDER_ID.search(text) or _EMAIL.search(text))
        )
        if wants_return or wants_status:
            if not order_id or not email:
                return _reply("clarification", _ASK_FOR_RETURN if wants_return else _ASK_FOR_LOOKUP, turn)
            arguments = {"order_id": order_id.upper(), "customer_email": email}
            return call("check_return_eligibility" if wants_return else "lookup_order", arguments)
        if _GREETING.search(text):
            return _reply(
                "greeting",
                "Hello! I'm Bookly's support assistant. I can help with order status, returns, "
                "and our shipping, returns and password policies. What can I do for you?",
                turn,
            )
        topic = "that request"
        return _reply("out_of_scope", REFUSAL_TEMPLATE.format(topic=topic), turn, topic=topic)

    # --- tool results ----------------------------------------------------------------------

    def _after_tools(self, results: list[dict], conversation: Conversation, turn: int) -> list[dict]:
        parts: list[str] = []
        intent = "clarification"  # an error asks the customer to check what they gave
        for block in results:
            name, tool_input = conversation.tool_inputs.get(block["tool_use_id"], ("", {}))
            payload = _payload(block)
            if block.get("is_error"):
                code = (payload.get("error") or {}).get("code")
                parts.append(_TOOL_ERRORS.get(code, _TOOL_ERROR_DEFAULT))
                continue
            if name == "check_return_eligibility" and payload.get("eligible"):
                return self._start_return(payload, tool_input, conversation, turn)
            intent = _INTENTS.get(name, intent)
            parts.append(self._describe(name, payload))
        return _reply(intent, " ".join(part for part in parts if part) or "I'm sorry, I couldn't find that.", turn)

    def _start_return(self, eligibility: dict, tool_input: dict, conversation: Conversation, turn: int) -> list[dict]:
        """Return what the customer named (or every returnable item if they named none); never a substitute."""
        request = conversation.customer_texts[-1].casefold() if conversation.customer_texts else ""
        named = [item for item in eligibility.get("items", []) if item["title"].casefold() in request]
        arguments = {**tool_input, "reason": "Customer asked to return it in chat."}
        if named:
            returnable = [item["title"] for item in named if item.get("returnable")]
            if not returnable:
                return _reply(
                    "return",
                    " ".join(
                        f"I'm sorry, {item['title']} {_ITEM_REASONS.get(item.get('reason'), 'cannot be returned')}."
                        for item in named
                    ),
                    turn,
                )
            arguments["item_titles"] = returnable
        return [{"type": "tool_use", "id": f"toolu_offline_{turn:04d}", "name": "initiate_return", "input": arguments}]

    def _describe(self, name: str, payload: dict) -> str:
        if name == "lookup_policy":
            return f"{_POLICY_INTROS.get(payload.get('topic'), 'Here is our policy')}: {payload.get('text', '')}"
        if name == "lookup_order":
            return _order_summary(payload)
        if name == "list_customer_orders":
            orders = ", ".join(f"{order['order_id']} ({order['status']})" for order in payload.get("orders", []))
            return f"I found these orders: {orders}. Which one would you like help with?"
        if name == "check_return_eligibility":
            reason = _ELIGIBILITY_REASONS.get(payload.get("reason"), "it cannot be returned")
            return (
                f"I'm sorry, order {payload.get('order_id')} can't be returned: "
                f"{reason.format(window_ends=payload.get('window_ends'))}."
            )
        if name == "initiate_return":
            return _return_summary(payload)
        return ""


def _order_summary(order: dict) -> str:
    titles = ", ".join(item["title"] for item in order.get("items", []))
    status = order.get("status")
    text = f"Order {order.get('order_id')} ({titles}) "
    if status == "delivered":
        text += f"was delivered on {order.get('delivered_date')}."
    elif status == "shipped":
        text += "has shipped and is on its way."
    elif status == "processing":
        text += "is being prepared and has not shipped yet."
    else:
        text += f"is {status}."
    if order.get("tracking_number"):
        text += f" Its tracking number is {order['tracking_number']}."
    return text


def _return_summary(result: dict) -> str:
    status = result.get("status")
    if status in ("declined_by_customer", "not_confirmed"):
        return "No problem, I haven't started a return. Is there anything else I can help you with?"
    if status == "declined_by_staff":
        return (
            "Our team reviewed your return request and couldn't approve it, so no return was started and "
            "nothing was changed. If you have questions, you can talk to a person."
        )
    if "rma_number" not in result:
        return "I'm sorry, the return could not be started."
    titles = ", ".join(item["title"] for item in result.get("items", []))
    return (
        f"Your return is started. Your RMA number is {result['rma_number']} for {titles} from order "
        f"{result.get('order_id')}. {result.get('label_instructions', '')} You will be refunded "
        f"${result.get('refund_amount')} to your {result.get('refund_method')} {result.get('refund_timeline', '')}."
    ).replace("  ", " ")
