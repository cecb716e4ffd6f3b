{% macro lowered_map_keys(map) %}
    {#- The map<string, _> `map` with its keys in lower case, without a lambda
        function (transform_keys keeps Spark from compiling the stage): the keys
        joined by NUL, lowered at once, split again. Null for a null map; two keys
        equal in lower case fail the query, as with transform_keys. -#}
    case
        when size({{ map }}) > 0 then map_from_arrays(
            split(lower(array_join(map_keys({{ map }}), chr(0))), chr(0)),
            map_values({{ map }})
        )
        else {{ map }}
    end
{%- endmacro %}
