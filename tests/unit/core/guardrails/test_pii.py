"""PII detection and the vault. Every value below is fictional; check digits were computed so the values are valid
in shape only (or, for the near misses, deliberately wrong)."""

from __future__ import annotations

import pytest

from pipelines.core.guardrails.pii import PII_TYPES, PiiVault, find_pii, is_cn_resident_id


def _found(text: str) -> list[tuple[str, str]]:
    return [(m.type, m.value) for m in find_pii(text)]


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("Reach me at lena.hoffmann@example.org after 6pm.", "email", "lena.hoffmann@example.org"),
    ("我的手机是 139 1234 5678，微信同号。", "phone_cn", "139 1234 5678"),
    ("手机：+86 138-0013-8000", "phone_cn", "+86 138-0013-8000"),
    ("打我电话13700137000", "phone_cn", "13700137000"),
    ("Call the candidate at (415) 555-0142 today.", "phone_us", "(415) 555-0142"),
    ("London office: +44 20 7946 0958.", "phone_intl", "+44 20 7946 0958"),
    ("他的英国手机号是 +44 7700 900123。", "phone_intl", "+44 7700 900123"),  # a drama-reserved range is still a number
    ("Tokyo: +81 3-1234-5678", "phone_intl", "+81 3-1234-5678"),
    ("Dubai +971 50 123 4567", "phone_intl", "+971 50 123 4567"),
    ("身份证号：44030619880715109X，请核对。", "cn_resident_id", "44030619880715109X"),
    ("ID card 320102199502284618 was verified.", "cn_resident_id", "320102199502284618"),
    ("SSN: 536-22-8901, DOB 1988-04-12.", "us_ssn", "536-22-8901"),
    ("social security number 536 22 8901", "us_ssn", "536 22 8901"),
    ("Refund to card 4532 0151 1283 0366, expiry 09/27.", "credit_card", "4532 0151 1283 0366"),
    ("Mastercard 5454-5454-5454-5454", "credit_card", "5454-5454-5454-5454"),
    ("Amex 378282246310005 on file", "credit_card", "378282246310005"),
    ("银联卡 6228 4800 1234 5671", "credit_card", "6228 4800 1234 5671"),
    ("银联卡号 6222 0212 3456 7890 128，开户行招商银行。", "credit_card", "6222 0212 3456 7890 128"),  # 19 digits
    ("Passport No. E12345678, expires 2031.", "passport", "E12345678"),
    ("Passport number: 543210987", "passport", "543210987"),
    ("护照号码：G23456789，有效期至2030年。", "passport", "G23456789"),
    ("Pay the bonus to DE44 5001 0517 5407 3249 31.", "iban", "DE44 5001 0517 5407 3249 31"),
    ("工资请转入 GB29NWBK60161331926819（英国账户）。", "iban", "GB29NWBK60161331926819"),
    ("RIB: FR14 2004 1010 0505 0001 3M02 606", "iban", "FR14 2004 1010 0505 0001 3M02 606"),
    ("NL91ABNA0417164300, BIC ABNANL2A", "iban", "NL91ABNA0417164300"),
    ("Konto CH93 0076 2011 6238 5295 7", "iban", "CH93 0076 2011 6238 5295 7"),
])
def test_each_type_is_found_and_typed(text, kind, value):
    assert _found(text) == [(kind, value)]


def test_full_width_digits_and_letters_are_found_and_masked_in_place():
    text = "电话：１３８　１２３４　５６７８，邮箱 ｌｉ＠ｅｘａｍｐｌｅ．ｃｏｍ"
    assert [m.type for m in find_pii(text)] == ["phone_cn", "email"]
    assert PiiVault().mask(text) == "电话：[PHONE_CN_1]，邮箱 [EMAIL_1]"


def test_several_types_in_one_resume_line():
    text = "联系人：王芳，手机 +86 138-0013-8000，邮箱 wangfang@example.cn，身份证 320102199502284618。"
    assert [m.type for m in find_pii(text)] == ["phone_cn", "email", "cn_resident_id"]


@pytest.mark.parametrize("text", [
    "Salary band 25000-35000 RMB per month.",
    "薪资范围 15000-25000 元/月，期望 25k-35k。",
    "He worked there 2015-2021 and 2019-2023.",
    "Interview on 2024-05-17 at 14:30, or 2024.10.01.",
    "Python 3.11.4, Spark 3.5.0, Kubernetes 1.28.2",
    "Req ID REQ-2024-0915 is still open.",
    "Order 4532 0151 1283 0367 was refunded.",          # fails Luhn
    "订单号 6225 8801 3770 6511 是背调服务的订单。",         # starts with 62 but fails Luhn
    "Order number 1234567890123456 shipped.",          # Luhn-valid shape is not enough without an issuer prefix
    "Certificate no. 320102199502284617 on the diploma.",  # wrong check digit
    "档案编号 440305199213453317",                         # no such birth date
    "The sample SSNs 078-05-1120 and 219-09-9999 are in the form.",
    "000-12-3456, 666-12-3456 and 123-45-6789 are never issued.",
    "Zoom meeting ID 834 5921 0467, passcode 551203.",
    "Employee ID 20230145, desk 7F-112, invoice 962174038.",
    "A bare 9-digit number 938204615 or E12345678 with no passport context.",
    "Office: 500 Howard St, San Francisco, CA 94105; 上海市浦东新区，邮编200120。",
    "Careers page https://careers.example.com/jobs/4821?ref=linkedin",
])
def test_near_misses_are_not_pii(text):
    assert _found(text) == []


def test_resident_id_needs_a_province_a_real_birth_date_and_the_check_digit():
    assert is_cn_resident_id("44030619880715109X") and is_cn_resident_id("44030619880715109x")
    assert not is_cn_resident_id("44030619880715109")        # 17 characters
    assert not is_cn_resident_id("990306198807151091")       # no province 99
    assert not is_cn_resident_id("440306198802301099")       # 30 February
    assert not is_cn_resident_id("440306298807151099")       # born in the future


def test_vault_gives_stable_placeholders_numbered_per_type():
    vault = PiiVault()
    first = vault.mask("Mail a@example.com or b@example.com, call 13912345678.")
    second = vault.mask("Again: A@EXAMPLE.COM, and +86 139 1234 5678.")
    assert first == "Mail [EMAIL_1] or [EMAIL_2], call [PHONE_CN_1]."
    assert second == "Again: [EMAIL_1], and [PHONE_CN_1]."   # same value, other spelling: same placeholder
    assert vault.types() == ("email", "phone_cn") and len(vault) == 3


def test_restore_puts_the_values_back_and_leaves_unknown_placeholders():
    vault = PiiVault()
    masked = vault.mask("Contact lena@example.org, SSN 536-22-8901.")
    assert "lena@example.org" not in masked and "536-22-8901" not in masked
    assert vault.restore(masked) == "Contact lena@example.org, SSN 536-22-8901."
    assert vault.restore("[EMAIL_9] and [iban_3]") == "[EMAIL_9] and [iban_3]"
    assert vault.restore("[email_1]") == "lena@example.org"   # placeholders are case-insensitive


def test_from_entries_round_trip_keeps_numbering_and_lookups():
    vault = PiiVault()
    masked = vault.mask("a@example.com, 4532 0151 1283 0366, DE44 5001 0517 5407 3249 31")
    again = PiiVault.from_entries(vault.entries())
    assert again.entries() == vault.entries()
    assert again.restore(masked) == vault.restore(masked)
    assert again.mask("a@example.com and c@example.com") == "[EMAIL_1] and [EMAIL_2]"
    with pytest.raises(ValueError):
        PiiVault.from_entries({"not a placeholder": "x"})


def test_masking_masked_text_changes_nothing():
    vault = PiiVault()
    masked = vault.mask("Call 13912345678 or mail lena@example.org; card 4532015112830366.")
    assert vault.mask(masked) == masked
    assert find_pii(masked) == []


def test_every_placeholder_names_a_known_type():
    vault = PiiVault()
    vault.mask("a@example.com, 13912345678, (415) 555-0142, +44 20 7946 0958, 44030619880715109X, 536-22-8901, "
               "4532015112830366, Passport: E12345678, GB29NWBK60161331926819")
    assert set(vault.types()) == set(PII_TYPES)


def test_a_phone_in_a_run_of_other_numbers_is_still_found():
    assert _found("Tel 13912345678 2019-2023 Shanghai") == [("phone_cn", "13912345678")]
    assert _found("13912345678 (415) 555-0142") == [("phone_cn", "13912345678"), ("phone_us", "(415) 555-0142")]
    long_run = " ".join(["2019 2020 2021"] * 40) + " 13912345678"
    assert _found(long_run) == [("phone_cn", "13912345678")]


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("邮箱jane.doe@example.com", "email", "jane.doe@example.com"),
    ("联系邮箱：li.wei@example.cn已验证", "email", "li.wei@example.cn"),
    ("卡号4111111111111111已绑定", "credit_card", "4111111111111111"),
    ("美国SSN是536-22-8901，请保密", "us_ssn", "536-22-8901"),
    ("社会安全号码536 22 8901", "us_ssn", "536 22 8901"),
    ("他的护照是G23456789已过期", "passport", "G23456789"),
    ("Reisepass passport: C01X00T47", "passport", "C01X00T47"),
    ("收款账号DE44500105175407324931已核实", "iban", "DE44500105175407324931"),
])
def test_values_right_against_chinese_characters_are_found(text, kind, value):
    assert _found(text) == [(kind, value)]


@pytest.mark.parametrize("value", ["de44 5001 0517 5407 3249 31", "gb29nwbk60161331926819", "GB29-NWBK-6016-1331-9268-19",
                                   "Fr14.2004.1010.0505.0001.3m02.606", "CH93  0076  2011  6238  5295  7"])
def test_ibans_in_any_case_and_spacing_are_found(value):
    assert _found(f"Konto {value}.") == [("iban", value)]


def test_a_national_number_is_read_for_the_users_regions():
    text = "Call me on 07400 123456 after six."
    assert _found(text) == []  # a British mobile without +44 is read neither as Chinese nor as American
    assert [(m.type, m.value) for m in find_pii(text, regions=("GB",))] == [("phone_intl", "07400 123456")]
    assert PiiVault(regions=("GB",)).mask(text) == "Call me on [PHONE_INTL_1] after six."


@pytest.mark.parametrize("text", [
    "I live in France; mobile 06 12 34 56 78.",              # the country is named
    "我在英国，电话07400 123456，微信同号。",                      # named in Chinese, number against Chinese characters
    "Office +33 1 23 45 67 89, mobile 06 12 34 56 78.",      # a calling code elsewhere in the text
])
def test_a_national_number_is_read_for_the_regions_the_text_points_at(text):
    assert len([m for m in find_pii(text) if m.type.startswith("phone_")]) == (2 if "+33" in text else 1)


@pytest.mark.parametrize("text", [
    "ISBN 4-7837-4311-8, 669 pages", "ISBN 978-977-8767-54-4", "Server 90.17.151.228:8080",
    "Order #8882765945 shipped.", "O*NET 15-1252.00 Software Developers", "Coordinates 0.573467, -79.707919",
    "Budget $415,555,0142 approved", "Grew revenue 4155550142%",
])
def test_numbers_that_only_look_like_phones_are_not_pii(text):
    assert _found(text) == []
    assert find_pii(text, regions=("GB", "DE", "FR", "IN", "JP")) == []


def test_a_date_and_time_is_not_a_phone_number():
    for text in ("Interview on 2026-11-30 09:00 (Asia/Shanghai)", "面试时间：2026/11/30 14:30", "at 2026.1.5 9:30",
                 "booked for 2026-11-30 09:00–10:00"):
        assert find_pii(text) == [], text
    assert [m.value for m in find_pii("call (415) 555-0142 at 09:00")] == ["(415) 555-0142"]
