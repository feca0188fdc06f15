from django.apps import AppConfig, apps


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from chat.agent.tools import TOOLS

        # The guardrail policy names tools; guardrails never imports chat, so chat says which exist.
        apps.get_app_config("guardrails").tool_names = tuple(TOOLS)
