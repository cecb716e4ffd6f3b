{% macro conflict_reason(ordering) %}
    {#- The quarantine reason of a row of conflicting_deliveries: the change it
        conflicts with (applied), named by the format's `ordering` value. -#}
    concat(
        'conflicts with the change applied under the same key and {{ ordering }}',
        ' (landed ', coalesce(cast(applied_landed_at as string), 'at an unknown time'), '), whose content differs: ',
        applied_content
    )
{%- endmacro %}
