from django.apps import AppConfig


class GuardrailsConfig(AppConfig):
    name = "guardrails"
    default_auto_field = "django.db.models.BigAutoField"
    # The names of the model's tools, set by ChatConfig.ready(): the policy names tools, but
    # guardrails never imports chat.
    tool_names: tuple[str, ...] = ()

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from guardrails.models import GuardrailPolicy
        from guardrails.services import policy_changed

        # Every process forgets its cached policy when the policy is saved or deleted.
        post_save.connect(policy_changed, sender=GuardrailPolicy, dispatch_uid="guardrails.policy_cache_clear.save")
        post_delete.connect(policy_changed, sender=GuardrailPolicy, dispatch_uid="guardrails.policy_cache_clear.delete")
