{% macro dirxml_event_type_name(event_type) %}
    {#- SQL: the reference's name of a DirXML event type (1 to 8), null otherwise. -#}
    case {{ event_type }}
        when 1 then 'field insert'
        when 2 then 'field update'
        when 3 then 'field update (remove all values)'
        when 4 then 'row delete'
        when 5 then 'row insert (query-back)'
        when 6 then 'row update (query-back)'
        when 7 then 'field insert (query-back)'
        when 8 then 'field update (query-back)'
    end
{%- endmacro %}
