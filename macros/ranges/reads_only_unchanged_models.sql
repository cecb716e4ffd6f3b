{% macro reads_only_unchanged_models(unique_ids) %}
    {#- Whether the nodes `unique_ids` (what a data test or a view reads) are all
        models whose CDC groups have nothing new in this run
        (serve_groups_with_nothing_new). A view that serves no group (e.g.
        qlik_ct_quarantine_resolved) holds no rows of its own: it counts as the
        models it reads. False when one of them is not a model (a source, a
        seed) or serves no group. -#}
    {%- set models = [] -%}
    {%- set to_visit = unique_ids | list -%}
    {%- set visited = [] -%}
    {#- breadth first, a view without a group replaced by the nodes it reads (a
        loop over a list that grows: Jinja has no while) -#}
    {%- for unique_id in to_visit if unique_id not in visited -%}
        {%- do visited.append(unique_id) -%}
        {%- set node = graph.nodes.get(unique_id) -%}
        {%- if node is none or node.resource_type != 'model' -%}{{ return(false) }}{%- endif -%}
        {%- set meta = node.config.meta or {} -%}
        {%- if node.config.materialized in ['view', 'cdcflow_view']
            and not meta.get('cdcflow_table') and not meta.get('cdcflow_format') -%}
            {%- if not node.depends_on.nodes -%}{{ return(false) }}{%- endif -%}
            {%- do to_visit.extend(node.depends_on.nodes) -%}
        {%- else -%}
            {%- do models.append(node) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(cdcflow.serve_groups_with_nothing_new(models)) }}
{% endmacro %}
