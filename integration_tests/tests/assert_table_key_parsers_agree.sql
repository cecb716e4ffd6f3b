-- The Spark SQL table_key parser (macro dirxml_table_key_pairs) and the Python
-- UDF cdcflow_parse_table_key (udfs/table_key.py) agree: on each key below
-- (well-formed keys, quoting and escapes, every malformation the grammar of
-- reference 003 rules out), the native parser gives the UDF's pairs when the
-- UDF accepts the key, and null when the UDF rejects it (the staging then
-- takes the UDF's reason; it passes a null key as '', which the UDF rejects).
-- Returns the keys where they differ.

with

table_keys as (

    select * from values
        ('empno=1'),
        ('empno=-12.5 '),
        ('nom=a b c'),
        ('EMPNO=1'),
        ('empno= 1'),
        ('empno='),
        ('a=1+b=2'),
        ('a=1+B=2'),
        ('a=1+A=2'),
        ('a="1,2"'),
        ('a=1,2'),
        ('a="x\\"y"'),
        ('a="x\\\\y"'),
        ('a="x\\ny"'),
        ('a="unterminated'),
        ('a="x"y'),
        ('a="x"+b=2'),
        ('a=1+'),
        ('+a=1'),
        (''),
        ('=1'),
        ('a'),
        ('a=1=2'),
        ('a b=1 2'),
        ('a="x"\n'),
        ('a=1\ny'),
        ("a='x'"),
        ('a=<x>'),
        ('a="<x>"'),
        ('a=""'),
        ('a="+"+b="="'),
        ('pk_empno=7+pk_role="a+b"'),
        ('nom=Zoë'),
        ('a=1++b=2'),
        ('a==1'),
        ('a="x\\\\"+b="\\""'),
        ('a="\\\\"'),
        ('a="x\\"'),
        ('a=1+b="2"+c=3'),
        ('a=x"y'),
        ('a="x"+'),
        ('a;b=1'),
        (cast(null as string))
        as table_keys (table_key)

),

parsed as (

    select
        table_key,
        {{ cdcflow.dirxml_table_key_pairs('table_key') }} as native_key,
        cdcflow_parse_table_key(coalesce(table_key, '')) as udf_key
    from table_keys

)

select table_key, native_key, udf_key
from parsed
where
    (native_key is null) <> (udf_key.error is not null)
    or native_key is not null and not (native_key.pairs <=> udf_key.pairs)
