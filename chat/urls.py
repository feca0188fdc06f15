from django.urls import path

from chat import api

urlpatterns = [
    path("session", api.SessionApi.as_view(), name="session"),
    path("threads", api.ThreadListCreateApi.as_view(), name="thread-list"),
    path("threads/<uuid:thread_id>", api.ThreadDetailApi.as_view(), name="thread-detail"),
    path("threads/<uuid:thread_id>/messages", api.MessageListCreateApi.as_view(), name="message-list"),
    path(
        "threads/<uuid:thread_id>/messages/<uuid:message_id>/status",
        api.MessageStatusApi.as_view(),
        name="message-status",
    ),
    path("threads/<uuid:thread_id>/handoff", api.ThreadHandoffApi.as_view(), name="thread-handoff"),
    path("threads/<uuid:thread_id>/updates", api.thread_updates, name="thread-updates"),
    path("runs/<uuid:run_id>", api.run_detail, name="run-detail"),
    path("runs/<uuid:run_id>/cancel", api.RunCancelApi.as_view(), name="run-cancel"),
    path("runs/<uuid:run_id>/actions/<uuid:action_id>", api.RunActionApi.as_view(), name="run-action"),
]
