{% macro orphan_before_images(relation) %}
    {#- The BEFOREIMAGE rows of `relation` with no UPDATE of the same change_seq. -#}
    select before_image.*
    from {{ relation }} as before_image
    left anti join (
        select change_seq from {{ relation }} where change_oper = 'U'
    ) as change_row
        on before_image.change_seq = change_row.change_seq
    where before_image.change_oper = 'B'
{%- endmacro %}
