{% macro reopened_links(links, key, broadcast_keys=false) %}
    {#- Body of a chain's CTE reopened_links: of the stored links `links` (a
        relation or CTE), those a new change affects. `broadcast_keys`: the
        CTE affected_keys is sent to every task, so `links` is read where it
        lies and never shuffled (merged_chain_increment decides). -#}
    -- the links a new change affects: the key's open link, and every link ending
    -- at or after its first new change (a late change re-opens them)
    select {{ '/*+ broadcast(affected_keys) */' if broadcast_keys }}
        link.*,
        affected_keys.first_new_change_order
    from {{ links }} as link
    inner join affected_keys
        on {{ cdcflow.key_match('link', 'affected_keys', key) }}
    where
        link.valid_to_change_order is null
        or link.valid_to_change_order >= affected_keys.first_new_change_order
{%- endmacro %}
