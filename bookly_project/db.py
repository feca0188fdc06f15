"""Database helpers: connection handling for long-running work, and the hot path's combined insert."""

from collections.abc import Sequence

from django.db import connection
from django.db.models import Model


def db_connection_release() -> None:
    """Give this thread's connection back (to the pool) before a slow wait.

    A turn spends seconds waiting on the model; holding a connection meanwhile would
    tie up one Postgres connection per waiting turn. Inside a transaction (tests) it is
    kept, since closing would break the transaction.
    """
    if not connection.in_atomic_block:
        connection.close()


def rows_insert(*instances: Model) -> None:
    """Insert new model instances in one statement, in the order given (a row may refer to an earlier one).

    For the message POST, which stores a message and its run (docs/performance.md §9.4). It
    replaces one `Model.objects.create()` per row: each was a statement of its own, built and
    compiled by the ORM. Values are prepared as save() prepares them (defaults, auto_now,
    the fields' own conversion), but no signals are sent: use it only for models that have no
    save() override or save signal. Every instance needs its primary key set already (a UUID).
    """
    inserts = [_insert(instance) for instance in instances]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Earlier rows as data-modifying CTEs; Postgres checks foreign keys at the statement's end.
            earlier = ", ".join(f"row{index} AS ({sql})" for index, (sql, _) in enumerate(inserts[:-1]))
            cursor.execute(
                f"WITH {earlier} {inserts[-1][0]}" if earlier else inserts[-1][0],
                [value for _, values in inserts for value in values],
            )
        else:  # SQLite (the local mode) has no data-modifying CTEs: a statement per row
            for sql, values in inserts:
                cursor.execute(sql, values)
    for instance in instances:
        instance._state.adding = False
        instance._state.db = connection.alias


def _insert(instance: Model) -> tuple[str, list]:
    meta = instance._meta
    if instance.pk is None:
        raise ValueError(f"rows_insert needs the primary key of {meta.label} set before the insert")
    fields = meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) VALUES ({placeholders})"  # noqa: S608
    return sql, [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]


def model_from_row(model: type[Model], values: Sequence) -> Model:
    """A model instance from a hand-written SELECT of its concrete fields, in field order.

    The values go through the converters the ORM's compiler applies (SQLite hands back UUIDs,
    datetimes and booleans as text and integers; Postgres needs few), so the instance is the one
    a queryset would have built, on either database.
    """
    converted = []
    for field, value in zip(model._meta.concrete_fields, values, strict=True):
        expression = field.get_col(model._meta.db_table)
        for converter in (*connection.ops.get_db_converters(expression), *field.get_db_converters(connection)):
            value = converter(value, expression, connection)
        converted.append(value)
    return model.from_db(connection.alias, [field.attname for field in model._meta.concrete_fields], converted)
