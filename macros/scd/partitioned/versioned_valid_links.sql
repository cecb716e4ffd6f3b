{% macro versioned_valid_links(links, touches, key_columns) %}
    {#- The links of `links` (rows of an int_<table>__versioned table) that no
        later run superseded: a run that changed a key from its first new
        change_order on wrote that key's links again, so an earlier copy of a
        link is stale when a touch of its key (`touches`: key, first_new_change_order,
        loaded_at) is newer than the link and starts at or before the link's end
        (or the link was open). -#}
    select link.*
    from {{ links }} as link
    left anti join {{ touches }} as touch
        on {{ cdcflow.key_match('link', 'touch', key_columns) }}
        and link.loaded_at < touch.loaded_at
        and (
            link.valid_to_change_order is null
            or link.valid_to_change_order >= touch.first_new_change_order
        )
{%- endmacro %}
