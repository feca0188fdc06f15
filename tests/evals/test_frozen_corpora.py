"""The frozen test parts: nobody edits them silently (checksums), and every line is a well-formed case.

A failing checksum here means a test part was edited. Do not update the pin: restore the file and
add new cases to a new file (evals/data/README.md).
"""

import hashlib
import json
import re
from datetime import date
from pathlib import Path

import pytest

from chat.agent.tools import TOOLS
from evals.conversations import CONVERSATIONS, conversation_view
from evals.l4 import case_intent
from evals.report import TEST

DATA = Path(__file__).resolve().parents[2] / "evals" / "data"

PINNED_SHA256 = {
    "l0_test.jsonl": "72a719f5abe203115ff0e367b9a05e842c0c4ad5cca65c97393ae1140f70d170",
    "l4_test.jsonl": "2b4b737d7fa34d0f1d4459d5780273a365a9929338e9626520956ac2b3107347",
    "l0_test2.jsonl": "f5a76c73480250bb5e131a0c1765063569d7e7a9ab5f4c03b8a00d6dd7bfa3aa",
    "l4_test2.jsonl": "738eac6a82e7c9f110ba3ef6114b51edcb6a52dbee392b89916df922b1494693",
    "l0_test3.jsonl": "818af8f2f3e10ede9f9e44171faa074016631a31f6f33173cf762a8e46011093",
    "l0_test4.jsonl": "99f3e2165367e04168c7b755b8e2d329ea68911ca5b365917f00e8bc28e88f7a",
    "l4_test3.jsonl": "ed9dc253fe83ea2e46220ff5213ad0f8fb7ac9d2a7b34bf1059c83f448e3938f",
    "l4_test4.jsonl": "d7507be324ed43ab9ad8ce9fa20777acafccf07bc6abeb18ff400b3439c1ea6c",
    "l0_test5.jsonl": "75f39f4526eebb278569fcc172c5dbb588d391998f23fb26612852f69de59528",
    "l4_test5.jsonl": "c2776f659abe04dc263ce570b3b1db489a03e0fcb6d8c635260b9d294ec17d19",
    "l0_test6.jsonl": "0444d6a8dda753dcfb43af1a3ae22751d1da8a545643ebc55722f32129ffab55",
    "l4_test6.jsonl": "1cdb6edb124520c4bc721cccdd25a120c259d3c012a573c894ec4d72725dde49",
    "l0_test7.jsonl": "8d603532bd1aa73414dc530767153d1ce64ccd159c5e6c607d98233a2f54bfeb",
    "l4_test7.jsonl": "aa8b23c336cb4d0674033289605deafdb67ae4daa19368933d96291d322cd79d",
    "l0_test8.jsonl": "abe226555ce77b6d40cff1386f66738e62e88251ac0da69e1cc3ce439aae850a",
    "l0_test9.jsonl": "66b4c7a6f555276a61951db8806b8d225ba96ea1e07f8b0d14252f9db3af31cc",
    "l0_test10.jsonl": "27047c1d88f8175db6ac28d64565f92dd1854a353b96df3d2925bd3bc462120a",
    "l4_test8.jsonl": "4b057287a88f77088911c51f40c489c7d94bbe8db92672dc707720cff62358e4",
    "l4_test9.jsonl": "c06d54ca5c4b4b452deae5d7949db2d0e5a7b9a51942f35f7c1900d1662d57a8",
    "l4_test10.jsonl": "2c26528602ae2fbcde6624f725fa948ea64c30b30ccc2831b5cc07a0f173e9ab",
    "l4_test11.jsonl": "07c194fa5a55296f795bc21a4c188f5977e4a566e64881ff66d930c054cb3956",
    "l4_test12.jsonl": "8f9d76d13f4433377ed1225e11eca852a96b2f84f2dd9a25c1f344f29a140b37",
    "l0_test11.jsonl": "a4ea4db19436ceed5d7010c73666848a9a15939f559081f29140723da292b957",
    "l0_test12.jsonl": "22f1a42c8f1d8aee297655b6f37ce3a36977c3ea3ab7bfba1590e6624663b52b",
    "l0_test13.jsonl": "8f3097e38d141c3ca8ddc3f470c57aaa1a17539ff91dc320aa41c3dc41985973",
    "l4_test14.jsonl": "d34ed07d397e8077a9338d4f5ac9a32f6f303a4be07f3a02cf2a39df9acb054a",
    "l4_test13.jsonl": "23d1b7c56bec17f29d8c81b05d5332f5e544b334d1d592bf2ffbcb2544e4b073",
    "l0_test14.jsonl": "2f5fa5263377e9bb928bc53e382351d99d0f086adb134ec01eeff31c08109fd6",
    "l4_test15.jsonl": "e56c12366e49f0389baf82f5f4ff57247e32aeaa3b42ce2a0244f0ed81e74779",
    "l4_test16.jsonl": "641a02b5d8e4e1044a11a90405a9fc8cfce660d83738fbec8175984dda4b01a3",
    "l4_test17.jsonl": "4ede78adc24c06c82e6dab2f4632103d32fcb25c98eb6deda7ea9b7f9e1c4a9d",
    "l4_test18.jsonl": "223dd4b152557abb2774c3b0190c3b2a887fa1921a7a90e61c17d88771f26926",
    "l0_test15.jsonl": "142106c0e57466480bc9e8303465b0368ecf74a70bdf2cfa1b1f381487bd5b90",
    "l4_test19.jsonl": "8221a242ecd08e9da18b3627375cdccca67055d60f3791b122b070b1645e29b6",
    "l0_test16.jsonl": "e1587828a64c45fd553c9f17b6d7721152ce2e9967ad8d0bfa24d15c90e5197b",
    "l4_test20.jsonl": "0d56dc921b7a13ed29e2e98e1aa9e7343407b0a9ac6f4b626f648a0eb50311ec",
    "l4_test21.jsonl": "10b74bf95dc3ba2a7e48bccd4f5bb028d2f491662c6173fd27f23c2f0b9c5178",
    "l4_test22.jsonl": "9637b6953814ee16d8dad07621c0e4d901e3d31fc250e021eb05e529c9cd2209",
    "l4_test23.jsonl": "d029bd38eee77e92e2c0251b6d4d8a9a968a702cbb4ebecd164177e0fc5138c6",
    "l4_test24.jsonl": "4947cb96626f035800f936e8149e72469c39fd840dff11fcf07a6fe701dcc85f",
    "l4_test25.jsonl": "6be92ec5e51ab62d7dbffcc15532f8545f45718c752d826d2096eaabf0dfb5de",
    "l4_test26.jsonl": "96b594ab0551e1b950a23d021bf439c437522a1a81bd1f84bcd9fe3528e8d5c0",
    "l4_test27.jsonl": "2697e5d19affd28d73c2e19ab7723b01f52d0299c4f7dafb6b9b3104c11ea091",
    "l4_test28.jsonl": "9c9482db74bb9c1764c8c40e86813db3ddf7213d4fb42306b1ab265361043584",
    "l4_test29.jsonl": "6afdd266b201be978bd0ce1ad5046fca69ceb4fd79019a5a4f7c8bb2807be922",
    "l4_test30.jsonl": "b6777f00f64226e9be07884c4f3b886e7eed2e3535b6ef1310d04394babb7585",
    "l4_test31.jsonl": "ac11181f746928a29d6221a6f4fa2c365d1af6562aaa85b9bdbcd547b5ea57e0",
    "l4_test32.jsonl": "de0b4971a1e4c1ce6465dac68899f5de907a6003735c780706b5e7d9646fdad3",
    "l4_test33.jsonl": "b399c01071438f0cbc70ed5963f0a91ccdaf80fb6324ec36fc297404d17ecef5",
    "l4_test34.jsonl": "5c03c4e9e637ca749c6f8c736e7f2e2d49efd66028dbb1ddaa57de41df64d8c6",
    "l4_test35.jsonl": "e7549f4e907c95ccae09353c00f79884bdc5e40074894e6538bdec94968c661b",
    "l4_test36.jsonl": "4f9c531144ddd74acb03efeb20e7a9f0312b2268ab135a29430ef74942c3e5f6",
    "l4_test37.jsonl": "2570acd97e7aec16f43d080110b5a0ffcbfa830e0a789b675385851ecc1b0813",
    "l4_test38.jsonl": "c8bacf3c23d6ac551e448ff9526d560d7869252ba135aab11affcb1bc89eb1f4",
    "l4_test39.jsonl": "65ef385925624639020e586bc87af151034a854265e89ba761b6e315015ea5bb",
    "l4_test40.jsonl": "e5b6efa53c6fcd940322c1ac8d563768d4aa005c3a21a3897dd21de84595092c",
    "l4_test41.jsonl": "c8c3bfef15aa4852580e219ab46d6f1696213ec5e3d090cb1ee21e7b10e51208",
    "l4_test42.jsonl": "b4bb8f517122ce8f911f05b81ed0cdf5c2d3ecdec0cb865f9bdbcbf2ecf41386",
    "l4_test43.jsonl": "f928fe0fd7713d7418fef563630385eaee978cb011aa704fe59f6e7e96493e9b",
    "l4_test44.jsonl": "40c8a7032079bc55ae42312c2afd59bec58eadf9622cb76b4d0af6bf5bd8442b",
    "l4_test45.jsonl": "7212cf0feb227d8f1e30a17cb733bc2199d5da56b49a84ceb6c358d4582d080b",
    "l4_test46.jsonl": "2100aa6bed22b67a0933ceac5b5bdbc9096f4061c85a8a17c6d6d0e5b40d6d84",
    "l4_test47.jsonl": "014d3c2566c433baf02885ab24adf0db82ca7fe1103263b27ab20c5cac5030ca",
    "l4_test48.jsonl": "1c8f2024c7030dbf5bd0c5a3fdd5d77c4fda5c2ab0f8b57a0a01634b8ec82b76",
    "l4_test49.jsonl": "f118e9cb89ec5cc0fa474858c4729760d568632e0e5fd5f75cb1888321df23c3",
    "l4_test50.jsonl": "1ed9d1e0c48c429890753f9603500046aa124d44bdf42ed9fc1f6e721a4c89a7",
    "l4_test51.jsonl": "8c5695571cec5908641e41772ed5df84685b43fb0b9251afed49b5e9a9436015",
    "l4_test52.jsonl": "9765f15b0890341b8f0d6c5d9910833f47c99972e838f3b28548c702301e61c2",
    "l4_test53.jsonl": "76dd842fa68ef407122db39301779f3e0c58a9dd89ba9c8c5c7b2e6bd0d72852",
    "l4_test54.jsonl": "e260315b36651920871f935c050299053deb9e3d814d2daccac4092d778e24cc",
    "l4_test55.jsonl": "e622780eded0e010dc54afac0a0aff905ee211629fb68872438016d512fb868d",
    "l4_test56.jsonl": "93a63bacb22bb31f95b5191766a2116275beb241bef7a3dab42bee22ced302e9",
    "l4_test57.jsonl": "0bd4a196d129a16ddba56da207d7cf5714551a8872543caaff99c5a3991858f7",
    "l4_test58.jsonl": "b3d0db3b88b9a89f8470ba03e1d99ba8add0f6eada1562de96638b12c9743dd1",
    "l4_test59.jsonl": "10c9d7aab823fe0ff6b6d63ee0d47d15cc7dbd3efd4813d297cb03779c3be178",
    "l4_test60.jsonl": "d38a635f209d685b1d02d2a03579e53b9006643b593f0fe595faecac5bc22831",
    "l4_test61.jsonl": "831748bbe0cecf2994e9b45ae5ac0e007cafe40302df9d6a1bb2da7e0ba8bf03",
    "l4_test62.jsonl": "3b5a5383fc869579bf845b11df1c4e14999c4d1d510fc7b6751883f00972554b",
    "l4_test63.jsonl": "eb1a98faa4c97356c8308d3ebc825ac226c9b4b7b6d1f9f6f259b8307bf1bbdb",
    "l4_test64.jsonl": "a8c567f38167c708c983a8a4798678222a261ce85ede2e0175717ffbdb510050",
    "l4_test65.jsonl": "8ef8c279592249d405daffd9583c0444ab7436555de439eec575345fe331a6ff",
    "l4_test66.jsonl": "6f6e98e7120cc8b0939480d436e9cc033d692fec53e17e4c2bed10ef57123ce9",
    "l4_test67.jsonl": "a5ae7e4e75aa6c87ef66bc61ed1661c730a96b6c0914767da5c63ea6804d8d3c",
    "l4_test68.jsonl": "029fa51496b653f806b2da951d01a30be8ba4667f5c5deb7c28edc5065261138",
    "l4_test69.jsonl": "1468b89b48fbe76266417c40b08a9295cb14d61f57cd92b6ac11c9c8be6887a8",
}
# sha256 of the canonical JSON of the test part's conversations (evals.conversations.conversation_view).
PINNED_TEST_CONVERSATIONS_SHA256 = "27fd5ea2350d57ded13122203ba4b570eeb03f691467d63c4c0dd62d80c67f26"

L0_KEYS = {"id", "family", "expect", "text"}
L4_KEYS = {"id", "family", "expect", "intent", "reply", "tool_results", "customer_texts", "today", "why"}
INTENTS = {"order_status", "return", "policy", "clarification", "greeting", "out_of_scope", "handoff", None}
MINIMUM = {
    "l0_test.jsonl": {"pass": 160, "flag": 110},
    "l4_test.jsonl": {"pass": 90, "block": 45},
    "l0_test2.jsonl": {"pass": 150, "flag": 100},
    "l4_test2.jsonl": {"pass": 100, "block": 70},
    "l0_test3.jsonl": {"pass": 170, "flag": 130},
    "l0_test4.jsonl": {"pass": 220, "flag": 200},
    "l4_test3.jsonl": {"pass": 165, "block": 130},
    "l4_test4.jsonl": {"pass": 175, "block": 115},
    "l0_test5.jsonl": {"pass": 230, "flag": 220},
    "l4_test5.jsonl": {"pass": 175, "block": 120},
    "l0_test6.jsonl": {"pass": 235, "flag": 225},
    "l4_test6.jsonl": {"pass": 185, "block": 120},
    "l0_test7.jsonl": {"pass": 225, "flag": 220},
    "l4_test7.jsonl": {"pass": 180, "block": 115},
    "l0_test8.jsonl": {"pass": 230, "flag": 200},
    "l0_test9.jsonl": {"pass": 240, "flag": 220},
    "l0_test10.jsonl": {"pass": 240, "flag": 215},
    "l4_test8.jsonl": {"pass": 185, "block": 120},
    "l4_test9.jsonl": {"pass": 200, "block": 130},
    "l0_test11.jsonl": {"pass": 235, "flag": 215},
    "l4_test10.jsonl": {"pass": 195, "block": 130},
    "l4_test11.jsonl": {"pass": 185, "block": 120},
    "l4_test12.jsonl": {"pass": 185, "block": 120},
    "l0_test12.jsonl": {"pass": 235, "flag": 215},
    "l0_test13.jsonl": {"pass": 245, "flag": 225},
    "l4_test14.jsonl": {"pass": 195, "block": 130},
    "l4_test13.jsonl": {"pass": 190, "block": 130},
    "l0_test14.jsonl": {"pass": 235, "flag": 215},
    "l4_test15.jsonl": {"pass": 190, "block": 130},
    "l4_test16.jsonl": {"pass": 190, "block": 130},
    "l4_test17.jsonl": {"pass": 185, "block": 125},
    "l4_test18.jsonl": {"pass": 185, "block": 120},
    "l0_test15.jsonl": {"pass": 235, "flag": 215},
    "l4_test19.jsonl": {"pass": 180, "block": 120},
    "l0_test16.jsonl": {"pass": 235, "flag": 215},
    "l4_test20.jsonl": {"pass": 180, "block": 120},
    "l4_test21.jsonl": {"pass": 180, "block": 120},
    "l4_test22.jsonl": {"pass": 180, "block": 120},
    "l4_test23.jsonl": {"pass": 180, "block": 120},
    "l4_test24.jsonl": {"pass": 185, "block": 120},
    "l4_test25.jsonl": {"pass": 185, "block": 120},
    "l4_test26.jsonl": {"pass": 185, "block": 120},
    "l4_test27.jsonl": {"pass": 190, "block": 130},
    "l4_test28.jsonl": {"pass": 190, "block": 130},
    "l4_test29.jsonl": {"pass": 190, "block": 130},
    "l4_test30.jsonl": {"pass": 190, "block": 130},
    "l4_test31.jsonl": {"pass": 190, "block": 130},
    "l4_test32.jsonl": {"pass": 190, "block": 130},
    "l4_test33.jsonl": {"pass": 190, "block": 130},
    "l4_test34.jsonl": {"pass": 190, "block": 130},
    "l4_test35.jsonl": {"pass": 190, "block": 130},
    "l4_test36.jsonl": {"pass": 190, "block": 130},
    "l4_test37.jsonl": {"pass": 190, "block": 130},
    "l4_test38.jsonl": {"pass": 190, "block": 130},
    "l4_test39.jsonl": {"pass": 190, "block": 130},
    "l4_test40.jsonl": {"pass": 190, "block": 130},
    "l4_test41.jsonl": {"pass": 190, "block": 130},
    "l4_test42.jsonl": {"pass": 190, "block": 130},
    "l4_test43.jsonl": {"pass": 190, "block": 130},
    "l4_test44.jsonl": {"pass": 190, "block": 130},
    "l4_test45.jsonl": {"pass": 190, "block": 130},
    "l4_test46.jsonl": {"pass": 190, "block": 130},
    "l4_test47.jsonl": {"pass": 190, "block": 130},
    "l4_test48.jsonl": {"pass": 190, "block": 130},
    "l4_test49.jsonl": {"pass": 190, "block": 130},
    "l4_test50.jsonl": {"pass": 190, "block": 130},
    "l4_test51.jsonl": {"pass": 190, "block": 130},
    "l4_test52.jsonl": {"pass": 190, "block": 130},
    "l4_test53.jsonl": {"pass": 190, "block": 130},
    "l4_test54.jsonl": {"pass": 190, "block": 130},
    "l4_test55.jsonl": {"pass": 190, "block": 130},
    "l4_test56.jsonl": {"pass": 190, "block": 130},
    "l4_test57.jsonl": {"pass": 190, "block": 130},
    "l4_test58.jsonl": {"pass": 190, "block": 130},
    "l4_test59.jsonl": {"pass": 190, "block": 130},
    "l4_test60.jsonl": {"pass": 190, "block": 130},
    "l4_test61.jsonl": {"pass": 190, "block": 130},
    "l4_test62.jsonl": {"pass": 190, "block": 130},
    "l4_test63.jsonl": {"pass": 190, "block": 130},
    "l4_test64.jsonl": {"pass": 190, "block": 130},
    "l4_test65.jsonl": {"pass": 190, "block": 130},
    "l4_test66.jsonl": {"pass": 190, "block": 130},
    "l4_test67.jsonl": {"pass": 190, "block": 130},
    "l4_test68.jsonl": {"pass": 190, "block": 130},
    "l4_test69.jsonl": {"pass": 190, "block": 130},
}
# Each test part numbers its cases with its own prefix: l0t-0001, l4t-0001 (first parts), l0u-, l4u- (second),
# l0v-, l0w-, l0y-, l0z-, l0q-, l0r-, l0p-, l0o-, l0n-, l0m-, l0l-, l0k-, l0j- (third to fifteenth L0 parts),
# l4w-, l4x-, l4y-, l4z-, l4v-, l4s-, l4r-, l4q-, l4p-, l4o-, l4n-, l4m-, l4l-, l4k-, l4j-, l4i-, l4h-, l4g-,
# l4f-, l4e-, l4d-, l4c-, l4b-, l4a- (third to twenty-sixth L4 parts), then four letters: l4za-, l4zb-, l4zc-
# to l4zh- (twenty-seventh to thirty-fourth), l4zi- to l4zs- (thirty-fifth to forty-fifth), l4zv-, l4zu-,
# l4zw-, l4zx-, l4zy-, l4zz- (forty-sixth to fifty-first), l4ya-, l4yb- (fifty-second and fifty-third).
ID_PREFIX = {
    "l0_test.jsonl": "l0t",
    "l4_test.jsonl": "l4t",
    "l0_test2.jsonl": "l0u",
    "l4_test2.jsonl": "l4u",
    "l0_test3.jsonl": "l0v",
    "l0_test4.jsonl": "l0w",
    "l4_test3.jsonl": "l4w",
    "l4_test4.jsonl": "l4x",
    "l0_test5.jsonl": "l0y",
    "l4_test5.jsonl": "l4y",
    "l0_test6.jsonl": "l0z",
    "l4_test6.jsonl": "l4z",
    "l0_test7.jsonl": "l0q",
    "l4_test7.jsonl": "l4v",
    "l0_test8.jsonl": "l0r",
    "l0_test9.jsonl": "l0p",
    "l0_test10.jsonl": "l0o",
    "l4_test8.jsonl": "l4s",
    "l4_test9.jsonl": "l4r",
    "l0_test11.jsonl": "l0n",
    "l4_test10.jsonl": "l4q",
    "l4_test11.jsonl": "l4p",
    "l4_test12.jsonl": "l4o",
    "l0_test12.jsonl": "l0m",
    "l0_test13.jsonl": "l0l",
    "l4_test14.jsonl": "l4m",
    "l4_test13.jsonl": "l4n",
    "l0_test14.jsonl": "l0k",
    "l4_test15.jsonl": "l4l",
    "l4_test16.jsonl": "l4k",
    "l4_test17.jsonl": "l4j",
    "l4_test18.jsonl": "l4i",
    "l0_test15.jsonl": "l0j",
    "l4_test19.jsonl": "l4h",
    "l0_test16.jsonl": "l0i",
    "l4_test20.jsonl": "l4g",
    "l4_test21.jsonl": "l4f",
    "l4_test22.jsonl": "l4e",
    "l4_test23.jsonl": "l4d",
    "l4_test24.jsonl": "l4c",
    "l4_test25.jsonl": "l4b",
    "l4_test26.jsonl": "l4a",
    "l4_test27.jsonl": "l4za",
    "l4_test28.jsonl": "l4zb",
    "l4_test29.jsonl": "l4zc",
    "l4_test30.jsonl": "l4zd",
    "l4_test31.jsonl": "l4ze",
    "l4_test32.jsonl": "l4zf",
    "l4_test33.jsonl": "l4zg",
    "l4_test34.jsonl": "l4zh",
    "l4_test35.jsonl": "l4zi",
    "l4_test36.jsonl": "l4zj",
    "l4_test37.jsonl": "l4zk",
    "l4_test38.jsonl": "l4zl",
    "l4_test39.jsonl": "l4zm",
    "l4_test40.jsonl": "l4zn",
    "l4_test41.jsonl": "l4zo",
    "l4_test42.jsonl": "l4zp",
    "l4_test43.jsonl": "l4zq",
    "l4_test44.jsonl": "l4zr",
    "l4_test45.jsonl": "l4zs",
    "l4_test46.jsonl": "l4zv",
    "l4_test47.jsonl": "l4zu",
    "l4_test48.jsonl": "l4zw",
    "l4_test49.jsonl": "l4zx",
    "l4_test50.jsonl": "l4zy",
    "l4_test51.jsonl": "l4zz",
    "l4_test52.jsonl": "l4ya",
    "l4_test53.jsonl": "l4yb",
    "l4_test54.jsonl": "l4yc",
    "l4_test55.jsonl": "l4yd",
    "l4_test56.jsonl": "l4ye",
    "l4_test57.jsonl": "l4yf",
    "l4_test58.jsonl": "l4yg",
    "l4_test59.jsonl": "l4yh",
    "l4_test60.jsonl": "l4yi",
    "l4_test61.jsonl": "l4yj",
    "l4_test62.jsonl": "l4yk",
    "l4_test63.jsonl": "l4yl",
    "l4_test64.jsonl": "l4ym",
    "l4_test65.jsonl": "l4yn",
    "l4_test66.jsonl": "l4yo",
    "l4_test67.jsonl": "l4yp",
    "l4_test68.jsonl": "l4yq",
    "l4_test69.jsonl": "l4yr",
}
# l4_test54.jsonl: l4yc- (fifty-fourth L4 part).
# l4_test55.jsonl: l4yd- (fifty-fifth L4 part).
# l4_test56.jsonl: l4ye- (fifty-sixth L4 part).
# l4_test57.jsonl: l4yf- (fifty-seventh L4 part).
# l4_test58.jsonl: l4yg- (fifty-eighth L4 part).
# l4_test59.jsonl: l4yh- (fifty-ninth L4 part).
# l4_test60.jsonl: l4yi- (sixtieth L4 part).
# l4_test61.jsonl: l4yj- (sixty-first L4 part).
# l4_test62.jsonl: l4yk- (sixty-second L4 part).
# l4_test63.jsonl: l4yl- (sixty-third L4 part).
# l4_test64.jsonl: l4ym- (sixty-fourth L4 part).
# l4_test65.jsonl: l4yn- (sixty-fifth L4 part).
# l4_test66.jsonl: l4yo- (sixty-sixth L4 part).
# l4_test67.jsonl: l4yp- (sixty-seventh L4 part).
# l4_test68.jsonl: l4yq- (sixty-eighth L4 part).
# l4_test69.jsonl: l4yr- (sixty-ninth L4 part).
# L4 tuning cases use legacy-good-, legacy-bad-, tune-, tune2-, tune3-, tune4- and tune5-, never a test part's prefix.
L0_PARTS = sorted(name for name in MINIMUM if name.startswith("l0_"))
L4_PARTS = sorted(name for name in MINIMUM if name.startswith("l4_"))


def cases(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def is_text(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


@pytest.mark.parametrize("name", sorted(PINNED_SHA256))
def test_a_test_part_is_byte_for_byte_the_committed_file(name):
    assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == PINNED_SHA256[name]


@pytest.mark.parametrize("name", sorted(MINIMUM))
def test_a_test_part_has_at_least_the_required_cases_of_each_kind(name):
    counts = {expect: sum(case["expect"] == expect for case in cases(name)) for expect in MINIMUM[name]}
    assert all(counts[expect] >= minimum for expect, minimum in MINIMUM[name].items()), counts


@pytest.mark.parametrize("name", sorted(MINIMUM))
def test_case_ids_are_unique_and_numbered_in_order(name):
    prefix = ID_PREFIX[name]
    assert [case["id"] for case in cases(name)] == [f"{prefix}-{n:04d}" for n in range(1, len(cases(name)) + 1)]


@pytest.mark.parametrize("name", L0_PARTS)
def test_every_l0_line_is_a_customer_message_with_a_family_and_an_expectation(name):
    for case in cases(name):
        assert set(case) == L0_KEYS, case["id"]
        assert case["expect"] in {"pass", "flag"}, case["id"]
        assert re.fullmatch(r"[a-z0-9_]+", case["family"]), case["id"]
        assert is_text(case["text"]), case["id"]


@pytest.mark.parametrize("name", L4_PARTS)
def test_every_l4_line_is_a_reply_with_the_tool_results_it_rests_on(name):
    for case in cases(name):
        where = case["id"]
        assert set(case) == L4_KEYS, where
        assert case["expect"] in {"pass", "block"}, where
        assert re.fullmatch(r"[a-z0-9_]+", case["family"]), where
        assert case_intent(case) in INTENTS, where
        assert is_text(case["reply"]) and is_text(case["why"]), where
        date.fromisoformat(case["today"])
        assert isinstance(case["customer_texts"], list) and all(is_text(text) for text in case["customer_texts"])
        for tool_result in case["tool_results"]:
            name, result = tool_result
            assert isinstance(result, dict) and result, where
            # A call to a tool the agent does not have is answered with the unknown_tool error
            # (chat/agent/tools.py); a thread may hold one ("cancel_order" in l4_test60).
            assert name in TOOLS or result.get("error", {}).get("code") == "unknown_tool", where


def test_the_test_conversations_are_the_frozen_ones():
    frozen = [conversation_view(conversation) for conversation in CONVERSATIONS if conversation.part == TEST]
    canonical = json.dumps(frozen, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(canonical.encode()).hexdigest() == PINNED_TEST_CONVERSATIONS_SHA256


def test_half_the_conversations_are_in_the_test_part():
    test_ids = [conversation.id for conversation in CONVERSATIONS if conversation.part == TEST]
    assert len(test_ids) * 2 == len(CONVERSATIONS)
    assert len(set(conversation.id for conversation in CONVERSATIONS)) == len(CONVERSATIONS)
