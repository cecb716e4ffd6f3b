-- The native Connect Decimal decoder (macro connect_decimal_text) against known
-- values: the reference's examples, the limits of every byte length (64-bit
-- halves, 2^64, decimal(38)'s largest values), a random value of each length
-- from 1 to 16 bytes and each sign, sign-extended encodings, and inputs that
-- must give null (not Base64, no bytes, more than 16 bytes, beyond decimal(38),
-- null value or scale). Expected values were computed with Python's
-- int.from_bytes(..., signed=True). Returns the cases where it is wrong.
{%- set scales = [0, 1, 2, 3, 5, 10] %}

with

cases as (

    select * from values
        ('MDk=', 2, '123.45', 'known'),
        ('AA==', 2, '0.00', 'known'),
        ('AQ==', 0, '1', 'known'),
        ('/w==', 0, '-1', 'known'),
        ('gA==', 0, '-128', 'known'),
        ('AIA=', 0, '128', 'known'),
        ('/4A=', 3, '-0.128', 'known'),
        ('z8c=', 2, '-123.45', 'known'),
        ('AA==', 0, '0', 'edge'),
        ('AA==', 2, '0.00', 'edge'),
        ('AQ==', 0, '1', 'edge'),
        ('AQ==', 2, '0.01', 'edge'),
        ('/w==', 0, '-1', 'edge'),
        ('/w==', 2, '-0.01', 'edge'),
        ('fw==', 0, '127', 'edge'),
        ('fw==', 2, '1.27', 'edge'),
        ('AIA=', 0, '128', 'edge'),
        ('AIA=', 2, '1.28', 'edge'),
        ('gA==', 0, '-128', 'edge'),
        ('gA==', 2, '-1.28', 'edge'),
        ('/38=', 0, '-129', 'edge'),
        ('/38=', 2, '-1.29', 'edge'),
        ('AP8=', 0, '255', 'edge'),
        ('AP8=', 2, '2.55', 'edge'),
        ('AQA=', 0, '256', 'edge'),
        ('AQA=', 2, '2.56', 'edge'),
        ('f/////////8=', 0, '9223372036854775807', 'edge'),
        ('f/////////8=', 2, '92233720368547758.07', 'edge'),
        ('gAAAAAAAAAA=', 0, '-9223372036854775808', 'edge'),
        ('gAAAAAAAAAA=', 2, '-92233720368547758.08', 'edge'),
        ('AIAAAAAAAAAA', 0, '9223372036854775808', 'edge'),
        ('AIAAAAAAAAAA', 2, '92233720368547758.08', 'edge'),
        ('/3//////////', 0, '-9223372036854775809', 'edge'),
        ('/3//////////', 2, '-92233720368547758.09', 'edge'),
        ('AP//////////', 0, '18446744073709551615', 'edge'),
        ('AP//////////', 2, '184467440737095516.15', 'edge'),
        ('AQAAAAAAAAAA', 0, '18446744073709551616', 'edge'),
        ('AQAAAAAAAAAA', 2, '184467440737095516.16', 'edge'),
        ('/wAAAAAAAAAA', 0, '-18446744073709551616', 'edge'),
        ('/wAAAAAAAAAA', 2, '-184467440737095516.16', 'edge'),
        ('B4XuENXaRtkA9Daf/////w==', 0, '9999999999999999999999999999999999999', 'edge'),
        ('B4XuENXaRtkA9Daf/////w==', 2, '99999999999999999999999999999999999.99', 'edge'),
        ('+HoR7yoluSb/C8lgAAAAAQ==', 0, '-9999999999999999999999999999999999999', 'edge'),
        ('+HoR7yoluSb/C8lgAAAAAQ==', 2, '-99999999999999999999999999999999999.99', 'edge'),
        ('SztMqFqGxHoJiiI//////w==', 0, '99999999999999999999999999999999999999', 'edge'),
        ('SztMqFqGxHoJiiI//////w==', 2, '999999999999999999999999999999999999.99', 'edge'),
        ('tMSzV6V5O4X2dd3AAAAAAQ==', 0, '-99999999999999999999999999999999999999', 'edge'),
        ('tMSzV6V5O4X2dd3AAAAAAQ==', 2, '-999999999999999999999999999999999999.99', 'edge'),
        ('Ug==', 2, '0.82', '1 bytes'),
        ('mw==', 0, '-101', '1 bytes'),
        ('CcU=', 0, '2501', '2 bytes'),
        ('0LI=', 0, '-12110', '2 bytes'),
        ('dPEu', 2, '76639.18', '3 bytes'),
        ('+rNY', 0, '-347304', '3 bytes'),
        ('OAGzrQ==', 10, '0.0939635629', '4 bytes'),
        ('9o76OQ==', 2, '-1584019.91', '4 bytes'),
        ('Rpc499k=', 10, '30.3184803801', '5 bytes'),
        ('lnDeIko=', 0, '-453372927414', '5 bytes'),
        ('HRPyjBBd', 0, '31971510849629', '6 bytes'),
        ('tIxsQvsx', 10, '-8295.9771960527', '6 bytes'),
        ('fXXtDLHinA==', 2, '353140330695154.20', '7 bytes'),
        ('uD809BMoUA==', 2, '-201967016574217.44', '7 bytes'),
        ('NiZZIUoj1ZY=', 2, '39019041266757687.26', '8 bytes'),
        ('8GwvH3WVnBQ=', 5, '-11224703949588.65388', '8 bytes'),
        ('WFDtqC+PbQVY', 2, '16291449805011784185.20', '9 bytes'),
        ('tescQG7lniQe', 2, '-13665643187849124812.50', '9 bytes'),
        ('RpwY8TXSX1VyAw==', 0, '333445143153277811388931', '10 bytes'),
        ('sETwvfpLb4WPPQ==', 2, '-3765175927360177660520.35', '10 bytes'),
        ('RI9ori6xVH8VBSQ=', 10, '8288418515339299.6934550820', '11 bytes'),
        ('w+cor5QNEDkHiOg=', 10, '-7265285781743492.6712649496', '11 bytes'),
        ('IExxO0y9h61ckKlY', 2, '99959333978739437313762696.56', '12 bytes'),
        ('4EFyAjhdFd9NDrNs', 0, '-9824401745274129528090872980', '12 bytes'),
        ('QAZzRyFM3SBVkw1urw==', 5, '50725986733434028156001251.11983', '13 bytes'),
        ('sjZJtfeNGTPFRUMS4A==', 0, '-6162995374682587430487364267296', '13 bytes'),
        ('FZ1rChjogw4HvB45jxA=', 5, '4384025502943595436816692617.90992', '14 bytes'),
        ('yYWC01B9ERU0HdkXiqs=', 0, '-1104954694071723610285306123154773', '14 bytes'),
        ('Yl11E97vhqsQMdD2RuH0', 5, '5107406320742947302124368377848.05876', '15 bytes'),
        ('s2uwplq1hE4BH3Co7b2+', 10, '-39762264463881634510504584.9579340354', '15 bytes'),
        ('CU05aHTJ32rMARzdlHQDGw==', 0, '12364023193392044499035569058770846491', '16 bytes'),
        ('tMSzYrUBQ5EHGbRyqgXhGw==', 5, '-999999991236834853012594351157622.94501', '16 bytes'),
        ('AAAABQ==', 1, '0.5', 'padded'),
        ('////+w==', 1, '-0.5', 'padded'),
        ('not base64!', 2, null, 'null'),
        ('', 2, null, 'null'),
        ('AQAAAAAAAAAAAAAAAAAAAAA=', 2, null, 'null'),
        ('f/////////////////////8=', 2, null, 'null'),
        ('f////////////////////w==', 0, null, 'overflow'),
        (null, 2, null, 'null'),
        ('MDk=', cast(null as int), null, 'null')
        as cases (encoded, scale, expected, case_kind)

),

decoded as (

    select
        *,
        {{ cdcflow.connect_decimal_text('encoded', 'scale') }} as decoded_text
    from cases

)

select * from decoded
where
    (decoded_text is null) <> (expected is null)
    {%- for scale in scales %}
    or scale = {{ scale }} and not (
        try_cast(decoded_text as decimal(38, {{ scale }})) <=> cast(expected as decimal(38, {{ scale }}))
    )
    {%- endfor %}
