/* Random draws of the study's simulations (esize_study.engine._kernels): the numbers
 * numpy's Generator(PCG64) gives, from the same state, a loop without numpy's call
 * through a function pointer for every 64 random bits.
 *
 *   normal_fill        Generator.standard_normal(n)  (numpy's 256-step ziggurat)
 *   bounded_u16_fill   Generator.integers(0, high, n, dtype=uint16), 2 <= high <= 65536
 *                      (Lemire's multiply-and-reject on 16-bit halves of 32-bit words)
 *
 * Both read and write the generator's state in place (numpy's pcg64_state: the
 * 128-bit LCG state and increment, and the buffered upper half of the last 64-bit
 * draw that next_uint32 keeps), so numpy's next draw continues where these stop.
 * The algorithms and the ziggurat tables are numpy's (numpy/random/src/distributions
 * and ziggurat_constants.h, BSD-3-Clause, the NumPy developers); the tables below
 * are those of numpy 2's random library. _kernels checks at load time that this
 * library and the installed numpy give identical draws and uses numpy otherwise, so
 * results never depend on it. Compiled without -ffast-math.
 */
#include <math.h>
#include <stdint.h>

typedef struct {
    __uint128_t state;
    __uint128_t inc;
} pcg128;

typedef struct {
    pcg128 *pcg_state;
    int has_uint32;
    uint32_t uinteger;
} pcg64_state;

#define PCG_MULT ((((__uint128_t)2549297995355413924ULL) << 64) + 4865540595714422341ULL)

/* PCG64 (XSL-RR output of the stepped state) */
static inline uint64_t next64(pcg128 *r)
{
    r->state = r->state * PCG_MULT + r->inc;
    uint64_t x = ((uint64_t)(r->state >> 64)) ^ (uint64_t)r->state;
    unsigned rot = (unsigned)(r->state >> 122);
    return (x >> rot) | (x << ((-rot) & 63));
}

static inline double next_double(pcg128 *r)
{
    return (next64(r) >> 11) * (1.0 / 9007199254740992.0);
}

static const double ziggurat_nor_r = 3.6541528853610087963519472518;
static const double ziggurat_nor_inv_r = 0.27366123732975827203338247596;

static const uint64_t ki_double[256] = {
    4208095142473578ULL, 0ULL, 3387314423973544ULL, 3838760076542274ULL,
    4030768804392682ULL, 4136731738896254ULL, 4203757248105145ULL, 4249917568205994ULL,
    4283617341590296ULL, 4309289223136604ULL, 4329489775174550ULL, 4345795907393188ULL,
    4359232558744730ULL, 4370494503737299ULL, 4380069246215646ULL, 4388308869042394ULL,
    4395473957549321ULL, 4401761481783924ULL, 4407323076021240ULL, 4412277362218204ULL,
    4416718463613199ULL, 4420722014516422ULL, 4424349484777079ULL, 4427651345409294ULL,
    4430669422005229ULL, 4433438668975191ULL, 4435988524278344ULL, 4438343955930065ULL,
    4440526279077425ULL, 4442553800234660ULL, 4444442329865861ULL, 4446205593658138ULL,
    4447855565093316ULL, 4449402736340121ULL, 4450856340408624ULL, 4452224534496486ULL,
    4453514552210512ULL, 4454732830656798ULL, 4455885117109368ULL, 4456976558985043ULL,
    4458011780094444ULL, 4458994945550386ULL, 4459929817254120ULL, 4460819801517196ULL,
    4461667990089170ULL, 4462477195632268ULL, 4463249982500384ULL, 4463988693531856ULL,
    4464695473445501ULL, 4465372289331869ULL, 4466020948651920ULL, 4466643115089764ULL,
    4467240322552142ULL, 4467813987562542ULL, 4468365420260672ULL, 4468895834186994ULL,
    4469406355006040ULL, 4469898028300364ULL, 4470371826548633ULL, 4470828655385770ULL,
    4471269359229841ULL, 4471694726349190ULL, 4472105493433674ULL, 4472502349725738ULL,
    4472885940759935ULL, 4473256871753524ULL, 4473615710685532ULL, 4473962991097124ULL,
    4474299214642296ULL, 4474624853414418ULL, 4474940352071305ULL, 4475246129778808ULL,
    4475542581990776ULL, 4475830082081194ULL, 4476108982842610ULL, 4476379617863426ULL,
    4476642302795321ULL, 4476897336520866ULL, 4477145002230339ULL, 4477385568415884ULL,
    4477619289790266ULL, 4477846408136804ULL, 4478067153096380ULL, 4478281742896886ULL,
    4478490385029917ULL, 4478693276879082ULL, 4478890606303906ULL, 4479082552182886ULL,
    4479269284918997ULL, 4479450966910588ULL, 4479627752990372ULL, 4479799790834988ULL,
    4479967221347354ULL, 4480130179013872ULL, 4480288792238368ULL, 4480443183654460ULL,
    4480593470417939ULL, 4480739764480586ULL, 4480882172846772ULL, 4481020797814010ULL,
    4481155737198612ULL, 4481287084547452ULL, 4481414929336784ULL, 4481539357158974ULL,
    4481660449897960ULL, 4481778285894165ULL, 4481892940099539ULL, 4482004484223382ULL,
    4482112986869492ULL, 4482218513665204ULL, 4482321127382802ULL, 4482420888053758ULL,
    4482517853076245ULL, 4482612077316275ULL, 4482703613202871ULL, 4482792510817576ULL,
    4482878817978627ULL, 4482962580320076ULL, 4483043841366126ULL, 4483122642600925ULL,
    4483199023534056ULL, 4483273021761922ULL, 4483344673025224ULL, 4483414011262724ULL,
    4483481068661428ULL, 4483545875703378ULL, 4483608461209170ULL, 4483668852378323ULL,
    4483727074826624ULL, 4483783152620564ULL, 4483837108308932ULL, 4483888962951686ULL,
    4483938736146144ULL, 4483986446050596ULL, 4484032109405372ULL, 4484075741551420ULL,
    4484117356446452ULL, 4484156966678662ULL, 4484194583478081ULL, 4484230216725550ULL,
    4484263874959345ULL, 4484295565379450ULL, 4484325293849474ULL, 4484353064896186ULL,
    4484378881706674ULL, 4484402746123075ULL, 4484424658634833ULL, 4484444618368474ULL,
    4484462623074794ULL, 4484478669113436ULL, 4484492751434740ULL, 4484504863558830ULL,
    4484514997551788ULL, 4484523143998833ULL, 4484529291974394ULL, 4484533429008906ULL,
    4484535541052219ULL, 4484535612433424ULL, 4484533625816926ULL, 4484529562154580ULL,
    4484523400633636ULL, 4484515118620291ULL, 4484504691598554ULL, 4484492093104164ULL,
    4484477294653230ULL, 4484460265665252ULL, 4484440973380154ULL, 4484419382768918ULL,
    4484395456437370ULL, 4484369154522621ULL, 4484340434581640ULL, 4484309251471359ULL,
    4484275557219678ULL, 4484239300886654ULL, 4484200428415112ULL, 4484158882469814ULL,
    4484114602264271ULL, 4484067523374160ULL, 4484017577536216ULL, 4483964692431365ULL,
    4483908791450714ULL, 4483849793442887ULL, 4483787612441036ULL, 4483722157367660ULL,
    4483653331715198ULL, 4483581033200083ULL, 4483505153387764ULL, 4483425577285833ULL,
    4483342182902157ULL, 4483254840764470ULL, 4483163413397547ULL, 4483067754753536ULL,
    4482967709590562ULL, 4482863112794072ULL, 4482753788634692ULL, 4482639549955636ULL,
    4482520197281720ULL, 4482395517841076ULL, 4482265284489409ULL, 4482129254525304ULL,
    4481987168383486ULL, 4481838748191074ULL, 4481683696169781ULL, 4481521692864464ULL,
    4481352395175570ULL, 4481175434169564ULL, 4480990412637506ULL, 4480796902367134ULL,
    4480594441088331ULL, 4480382529045225ULL, 4480160625140311ULL, 4479928142586662ULL,
    4479684443993061ULL, 4479428835793398ULL, 4479160561915451ULL, 4478878796564388ULL,
    4478582635972392ULL, 4478271088936406ULL, 4477943065929958ULL, 4477597366530538ULL,
    4477232664848704ULL, 4476847492576192ULL, 4476440219183781ULL, 4476009028690434ULL,
    4475551892286424ULL, 4475066535915646ULL, 4474550401693506ULL, 4474000601739904ULL,
    4473413862618200ULL, 4472786458058295ULL, 4472114126959004ULL, 4471391972746494ULL,
    4470614338917719ULL, 4469774653883156ULL, 4468865235838896ULL, 4467877045039530ULL,
    4466799366045354ULL, 4465619395558397ULL, 4464321701199635ULL, 4462887501169282ULL,
    4461293691124341ULL, 4459511507635972ULL, 4457504658253067ULL, 4455226650325010ULL,
    4452616884242348ULL, 4449594783440798ULL, 4446050695647666ULL, 4441831266659618ULL,
    4436714892174061ULL, 4430368316897338ULL, 4422264825074740ULL, 4411517007702132ULL,
    4396496531309976ULL, 4373832704204284ULL, 4335125104963628ULL, 4251099761679434ULL,
};

static const double wi_double[256] = {
    0x1.f493b7815d979p-51, 0x1.b8d0be3fdf6c6p-55, 0x1.250af3c2c5bb4p-54,
    0x1.57cb938443b61p-54, 0x1.801fce82fa70cp-54, 0x1.a230c2e4cd0bcp-54,
    0x1.c004d2f3861f7p-54, 0x1.dac2f5a747274p-54, 0x1.f32482d4cd5c3p-54,
    0x1.04d32278ebbadp-53, 0x1.0f5053b025d43p-53, 0x1.192a697413677p-53,
    0x1.227a28f7a1af5p-53, 0x1.2b52e3863d880p-53, 0x1.33c3fc05791f5p-53,
    0x1.3bd9ec1a2b12fp-53, 0x1.439ef8dff9b55p-53, 0x1.4b1bb363dfea7p-53,
    0x1.52575621ad374p-53, 0x1.59580a707ce96p-53, 0x1.60231cfd97eeap-53,
    0x1.66bd261a37c3dp-53, 0x1.6d2a292000570p-53, 0x1.736dad346f8a6p-53,
    0x1.798ad10b32a77p-53, 0x1.7f845ad46f543p-53, 0x1.855cc53430a77p-53,
    0x1.8b1649e7b769ap-53, 0x1.90b2ea94ecf98p-53, 0x1.96347822c1eeap-53,
    0x1.9b9c98e38c546p-53, 0x1.a0eccdca4a72cp-53, 0x1.a62676d77cd59p-53,
    0x1.ab4ad6e101630p-53, 0x1.b05b16d136c9cp-53, 0x1.b558487427a29p-53,
    0x1.ba4368e529f3ap-53, 0x1.bf1d62abf8232p-53, 0x1.c3e70f9594ef3p-53,
    0x1.c8a13a5323b61p-53, 0x1.cd4c9fe72268bp-53, 0x1.d1e9f0e80b748p-53,
    0x1.d679d29e41f10p-53, 0x1.dafce0023b8c3p-53, 0x1.df73aa9f17653p-53,
    0x1.e3debb5d2edfep-53, 0x1.e83e9337a6f00p-53, 0x1.ec93abdf982cep-53,
    0x1.f0de784f06226p-53, 0x1.f51f654d8f688p-53, 0x1.f956d9e87d7aep-53,
    0x1.fd8537dfa2eacp-53, 0x1.00d56e04234ecp-52, 0x1.02e40f5398f9ap-52,
    0x1.04eea9e16a5fcp-52, 0x1.06f565b72a010p-52, 0x1.08f869071f40bp-52,
    0x1.0af7d84bc6113p-52, 0x1.0cf3d664bcc7fp-52, 0x1.0eec84b16086bp-52,
    0x1.10e20329515eep-52, 0x1.12d4707310fbep-52, 0x1.14c3e9f8e9141p-52,
    0x1.16b08bfc4201ep-52, 0x1.189a71a78da34p-52, 0x1.1a81b51ee6d88p-52,
    0x1.1c666f8f82acbp-52, 0x1.1e48b93e0d42ep-52, 0x1.2028a9940a09fp-52,
    0x1.2206572c4c6e9p-52, 0x1.23e1d7de9c31fp-52, 0x1.25bb40ca96bfbp-52,
    0x1.2792a661dd37fp-52, 0x1.29681c719d71bp-52, 0x1.2b3bb62b82edap-52,
    0x1.2d0d862e1b853p-52, 0x1.2edd9e8cba98ep-52, 0x1.30ac10d6e48d7p-52,
    0x1.3278ee1f4b930p-52, 0x1.3444470265ea1p-52, 0x1.360e2baca52d5p-52,
    0x1.37d6abe05586ap-52, 0x1.399dd6fb2b264p-52, 0x1.3b63bbfb83d03p-52,
    0x1.3d28698561de0p-52, 0x1.3eebede725a83p-52, 0x1.40ae571e09e74p-52,
    0x1.426fb2da6745dp-52, 0x1.44300e83c30a4p-52, 0x1.45ef773cac75dp-52,
    0x1.47adf9e66c336p-52, 0x1.496ba32488f2fp-52, 0x1.4b287f602415dp-52,
    0x1.4ce49acb311dcp-52, 0x1.4ea001638a605p-52, 0x1.505abef5e5562p-52,
    0x1.5214df20a8b5ap-52, 0x1.53ce6d56a664fp-52, 0x1.558774e1bb2c8p-52,
    0x1.574000e555f78p-52, 0x1.58f81c60e8514p-52, 0x1.5aafd23241b59p-52,
    0x1.5c672d17d733dp-52, 0x1.5e1e37b2f8cd3p-52, 0x1.5fd4fc89f5e38p-52,
    0x1.618b860a31fc3p-52, 0x1.6341de8a2b0a2p-52, 0x1.64f8104b7260bp-52,
    0x1.66ae257c99672p-52, 0x1.6864283b13137p-52, 0x1.6a1a22950b2b1p-52,
    0x1.6bd01e8b343bbp-52, 0x1.6d8626128d352p-52, 0x1.6f3c43161f854p-52,
    0x1.70f27f78b68ebp-52, 0x1.72a8e516914c6p-52, 0x1.745f7dc70eedcp-52,
    0x1.7616535e5731fp-52, 0x1.77cd6faeff449p-52, 0x1.7984dc8babd93p-52,
    0x1.7b3ca3c8b1409p-52, 0x1.7cf4cf3db22fbp-52, 0x1.7ead68c73dee7p-52,
    0x1.80667a486ea1fp-52, 0x1.82200dac88676p-52, 0x1.83da2ce899f15p-52,
    0x1.8594e1fd1f5bdp-52, 0x1.875036f7a7ec5p-52, 0x1.890c35f47f72dp-52,
    0x1.8ac8e9205c043p-52, 0x1.8c865aba10c9cp-52, 0x1.8e44951446a27p-52,
    0x1.9003a2973b58fp-52, 0x1.91c38dc288347p-52, 0x1.9384612ef0afcp-52,
    0x1.954627903a28ap-52, 0x1.9708ebb70d5eep-52, 0x1.98ccb892e2a31p-52,
    0x1.9a919933f99bfp-52, 0x1.9c5798cd5d92cp-52, 0x1.9e1ec2b6f7411p-52,
    0x1.9fe7226fad24ap-52, 0x1.a1b0c39f93692p-52, 0x1.a37bb21a2c85bp-52,
    0x1.a547f9e0bbb88p-52, 0x1.a715a724aa9a4p-52, 0x1.a8e4c64a0313dp-52,
    0x1.aab563e9ff108p-52, 0x1.ac878cd5af5cep-52, 0x1.ae5b4e18bb336p-52,
    0x1.b030b4fc3a11ap-52, 0x1.b207cf09a985bp-52, 0x1.b3e0aa0e00c00p-52,
    0x1.b5bb541ce3d03p-52, 0x1.b797db93f8927p-52, 0x1.b9764f1e5f73cp-52,
    0x1.bb56bdb85256ep-52, 0x1.bd3936b2ec0a2p-52, 0x1.bf1dc9b81ae83p-52,
    0x1.c10486cec16a0p-52, 0x1.c2ed7e5f07a2dp-52, 0x1.c4d8c136e0d1cp-52,
    0x1.c6c6608ec8705p-52, 0x1.c8b66e0eba617p-52, 0x1.caa8fbd36a2abp-52,
    0x1.cc9e1c73bd690p-52, 0x1.ce95e3068e037p-52, 0x1.d0906328b8f6ep-52,
    0x1.d28db1037ef20p-52, 0x1.d48de1533c647p-52, 0x1.d691096e7f123p-52,
    0x1.d8973f4d7fba5p-52, 0x1.daa0999206e70p-52, 0x1.dcad2f8fc490ep-52,
    0x1.debd195522e37p-52, 0x1.e0d06fb49d21cp-52, 0x1.e2e74c4ea46f6p-52,
    0x1.e501c99c1d188p-52, 0x1.e72002f97fe25p-52, 0x1.e94214b2abf0ap-52,
    0x1.eb681c0f76f08p-52, 0x1.ed9237610a73ap-52, 0x1.efc086101eca9p-52,
    0x1.f1f328ac25321p-52, 0x1.f42a40fb74d6dp-52, 0x1.f665f20c90168p-52,
    0x1.f8a6604899782p-52, 0x1.faebb187122bfp-52, 0x1.fd360d22fe785p-52,
    0x1.ff859c118f60bp-52, 0x1.00ed447d3a075p-51, 0x1.021a8028fc947p-51,
    0x1.034a983a902abp-51, 0x1.047da4e3ef5c7p-51, 0x1.05b3bf6adb37ep-51,
    0x1.06ed023a72668p-51, 0x1.082988f632e17p-51, 0x1.0969708e8a254p-51,
    0x1.0aacd7571c0c4p-51, 0x1.0bf3dd1eed448p-51, 0x1.0d3ea34aa3d30p-51,
    0x1.0e8d4cf116593p-51, 0x1.0fdffefa69fb6p-51, 0x1.1136e04207041p-51,
    0x1.129219bbb5d35p-51, 0x1.13f1d69c4096dp-51, 0x1.1556448602e3bp-51,
    0x1.16bf93b9deef3p-51, 0x1.182df74d21261p-51, 0x1.19a1a564eebacp-51,
    0x1.1b1ad777f2f8ep-51, 0x1.1c99ca971a694p-51, 0x1.1e1ebfbe4ae39p-51,
    0x1.1fa9fc2e2d901p-51, 0x1.213bc9d04cc81p-51, 0x1.22d477a6fd3eep-51,
    0x1.24745a4ac9c24p-51, 0x1.261bcc77658e0p-51, 0x1.27cb2faa8592ep-51,
    0x1.2982ecd770e78p-51, 0x1.2b437532a0a52p-51, 0x1.2d0d43196db97p-51,
    0x1.2ee0db1a978f5p-51, 0x1.30becd256aeeep-51, 0x1.32a7b5e68a4a3p-51,
    0x1.349c405ae12a3p-51, 0x1.369d27a33a840p-51, 0x1.38ab39256410ap-51,
    0x1.3ac7570ae88fap-51, 0x1.3cf27b31704a6p-51, 0x1.3f2dbaa60f475p-51,
    0x1.417a49cb9e5dap-51, 0x1.43d9815545e94p-51, 0x1.464ce44a73a15p-51,
    0x1.48d62759c43bcp-51, 0x1.4b7739d6b5a27p-51, 0x1.4e3250dcd8902p-51,
    0x1.5109f53e9ac41p-51, 0x1.54011523a7e42p-51, 0x1.571b1a94ae41bp-51,
    0x1.5a5c08b718dd9p-51, 0x1.5dc8a243ad0fep-51, 0x1.61669cf861e4cp-51,
    0x1.653ce7b006aeap-51, 0x1.69540be9fe5c3p-51, 0x1.6db6b8d09e232p-51,
    0x1.72728f05f7a34p-51, 0x1.7799556090673p-51, 0x1.7d42df4d6ce8cp-51,
    0x1.839030529f234p-51, 0x1.8ab0fbfaa7c14p-51, 0x1.92ee0946f4496p-51,
    0x1.9cbee014057abp-51, 0x1.a8fdc7894775ap-51, 0x1.b981f3878fdb1p-51,
    0x1.d3bb48209ad33p-51,
};

static const double fi_double[256] = {
    0x1.0000000000000p+0, 0x1.f446ac979f087p-1, 0x1.eb7545b6ca915p-1,
    0x1.e3f11e027f077p-1, 0x1.dd36fa704de95p-1, 0x1.d70920657bcf2p-1,
    0x1.d144978a119dcp-1, 0x1.cbd33a8a72debp-1, 0x1.c6a5ecea9787fp-1,
    0x1.c1b1cd9eebaeap-1, 0x1.bceeb4ee1dc82p-1, 0x1.b85653a8ff552p-1,
    0x1.b3e3a8234dd10p-1, 0x1.af92a3f6ce8a2p-1, 0x1.ab5fef17a2504p-1,
    0x1.a748bd550c9e1p-1, 0x1.a34aafdf5af0fp-1, 0x1.9f63bee651fd8p-1,
    0x1.9b9228d240681p-1, 0x1.97d4657617ac1p-1, 0x1.94291c21b7a47p-1,
    0x1.908f1bd31714fp-1, 0x1.8d0554fe60aa8p-1, 0x1.898ad48badf02p-1,
    0x1.861ebfc37bcacp-1, 0x1.82c050f56cf6ep-1, 0x1.7f6ed4b20e2cbp-1,
    0x1.7c29a779c6858p-1, 0x1.78f033ca0b0d5p-1, 0x1.75c1f0770d856p-1,
    0x1.729e5f43f6d12p-1, 0x1.6f850baea7aeep-1, 0x1.6c7589e635a89p-1,
    0x1.696f75e513b2ap-1, 0x1.667272a92e323p-1, 0x1.637e298550c18p-1,
    0x1.6092498802665p-1, 0x1.5dae86f4aff6ap-1, 0x1.5ad29acc85c89p-1,
    0x1.57fe4264c8d8fp-1, 0x1.55313f08d9e46p-1, 0x1.526b55a656cd5p-1,
    0x1.4fac4e820b667p-1, 0x1.4cf3f4f494ec0p-1, 0x1.4a42172dc5278p-1,
    0x1.479685fdf5012p-1, 0x1.44f114a493679p-1, 0x1.425198a355fe3p-1,
    0x1.3fb7e99585b82p-1, 0x1.3d23e10af31a3p-1, 0x1.3a955a662cd0ep-1,
    0x1.380c32bda00d5p-1, 0x1.358848bf550e9p-1, 0x1.33097c9703a35p-1,
    0x1.308fafd6438efp-1, 0x1.2e1ac55ea3beep-1, 0x1.2baaa14d7954ap-1,
    0x1.293f28e93cd15p-1, 0x1.26d84290504edp-1, 0x1.2475d5a90db84p-1,
    0x1.2217ca92ff7f2p-1, 0x1.1fbe0a9929620p-1, 0x1.1d687fe549969p-1,
    0x1.1b171573fd111p-1, 0x1.18c9b709b3c50p-1, 0x1.16805128639dap-1,
    0x1.143ad105ea99cp-1, 0x1.11f9248311f38p-1, 0x1.0fbb3a2325913p-1,
    0x1.0d810104142a0p-1, 0x1.0b4a68d70d9aep-1, 0x1.091761d995d81p-1,
    0x1.06e7dccf03c36p-1, 0x1.04bbcafa63f2ep-1, 0x1.02931e18b822ap-1,
    0x1.006dc85b8cac4p-1, 0x1.fc9778c7bbda1p-2, 0x1.f859da7a900cap-2,
    0x1.f4229cb2f7af3p-2, 0x1.eff1a717e8f95p-2, 0x1.ebc6e20bd1f54p-2,
    0x1.e7a236a4ec3c5p-2, 0x1.e3838ea5f9b85p-2, 0x1.df6ad47763a09p-2,
    0x1.db57f320b56b1p-2, 0x1.d74ad6426de33p-2, 0x1.d3436a1021080p-2,
    0x1.cf419b4ae5b6dp-2, 0x1.cb45573c0a848p-2, 0x1.c74e8bb00d7c7p-2,
    0x1.c35d26f1d2cb8p-2, 0x1.bf7117c616a17p-2, 0x1.bb8a4d6716d91p-2,
    0x1.b7a8b7807131bp-2, 0x1.b3cc462b331cap-2, 0x1.aff4e9ea18552p-2,
    0x1.ac2293a5f5a9ep-2, 0x1.a85534aa4d880p-2, 0x1.a48cbea20c04dp-2,
    0x1.a0c923946843ep-2, 0x1.9d0a55e1e93dfp-2, 0x1.995048418c0c6p-2,
    0x1.959aedbe09f93p-2, 0x1.91ea39b33cb17p-2, 0x1.8e3e1fcb9f115p-2,
    0x1.8a9693fde9188p-2, 0x1.86f38a8ac5ab6p-2, 0x1.8354f7faa0dd9p-2,
    0x1.7fbad11b8d911p-2, 0x1.7c250aff414b0p-2, 0x1.78939af9252ebp-2,
    0x1.7506769c7b1edp-2, 0x1.717d93ba9614cp-2, 0x1.6df8e86124caap-2,
    0x1.6a786ad88de21p-2, 0x1.66fc11a25cbe2p-2, 0x1.6383d377be515p-2,
    0x1.600fa7480d2c8p-2, 0x1.5c9f84376c244p-2, 0x1.5933619d6eebep-2,
    0x1.55cb3703d0100p-2, 0x1.5266fc2533bedp-2, 0x1.4f06a8ebf6d92p-2,
    0x1.4baa357109ca2p-2, 0x1.485199fad6ad4p-2, 0x1.44fccefc324fep-2,
    0x1.41abcd1357a19p-2, 0x1.3e5e8d08ed2dbp-2, 0x1.3b1507cf143aep-2,
    0x1.37cf368081379p-2, 0x1.348d125f9d19ep-2, 0x1.314e94d5af62fp-2,
    0x1.2e13b77210766p-2, 0x1.2adc73e963fddp-2, 0x1.27a8c414db11ep-2,
    0x1.2478a1f17de89p-2, 0x1.214c079f7cc9ep-2, 0x1.1e22ef6188116p-2,
    0x1.1afd539c2f050p-2, 0x1.17db2ed5454e8p-2, 0x1.14bc7bb34ee67p-2,
    0x1.11a134fcf2423p-2, 0x1.0e895598709c4p-2, 0x1.0b74d88b242dap-2,
    0x1.0863b8f904336p-2, 0x1.0555f2242e9d9p-2, 0x1.024b7f6c7747ep-2,
    0x1.fe88b89df93c5p-3, 0x1.f88108cb83235p-3, 0x1.f27fe6ce998d2p-3,
    0x1.ec854a4c99c44p-3, 0x1.e6912b2283cddp-3, 0x1.e0a3816457184p-3,
    0x1.dabc455c7900ap-3, 0x1.d4db6f8b2514fp-3, 0x1.cf00f8a5e6fccp-3,
    0x1.c92cd9971df53p-3, 0x1.c35f0b7d89d47p-3, 0x1.bd9787abe18a1p-3,
    0x1.b7d647a8731aap-3, 0x1.b21b452ccd13ap-3, 0x1.ac667a2571807p-3,
    0x1.a6b7e0b19267ep-3, 0x1.a10f7322d7e3dp-3, 0x1.9b6d2bfd2fe5ap-3,
    0x1.95d105f6a7c27p-3, 0x1.903afbf74fa69p-3, 0x1.8aab09192815bp-3,
    0x1.852128a819a38p-3, 0x1.7f9d5621f7175p-3, 0x1.7a1f8d368a323p-3,
    0x1.74a7c9c7ab5a6p-3, 0x1.6f3607e964716p-3, 0x1.69ca43e21f25cp-3,
    0x1.64647a2adf19cp-3, 0x1.5f04a76f883f9p-3, 0x1.59aac88f31d6cp-3,
    0x1.5456da9c86835p-3, 0x1.4f08dade31fc1p-3, 0x1.49c0c6cf5ce2dp-3,
    0x1.447e9c20375d5p-3, 0x1.3f4258b6931aep-3, 0x1.3a0bfaae8d7eep-3,
    0x1.34db805b4ab88p-3, 0x1.2fb0e847c2a65p-3, 0x1.2a8c3137a071ap-3,
    0x1.256d5a2835eb7p-3, 0x1.2054625183c34p-3, 0x1.1b41492757d42p-3,
    0x1.16340e5a82d63p-3, 0x1.112cb1da26eb9p-3, 0x1.0c2b33d5209bap-3,
    0x1.072f94bb8bf85p-3, 0x1.0239d54067d2ap-3, 0x1.fa93ecb6b222cp-4,
    0x1.f0bff29520e1cp-4, 0x1.e6f7bf29aa54bp-4, 0x1.dd3b56176e88fp-4,
    0x1.d38abb9bd91e5p-4, 0x1.c9e5f493b740ap-4, 0x1.c04d0680b1015p-4,
    0x1.b6bff78f2e233p-4, 0x1.ad3ece9caf633p-4, 0x1.a3c9933ea6286p-4,
    0x1.9a604dc9d5b19p-4, 0x1.9103075a4a0abp-4, 0x1.87b1c9dbf2852p-4,
    0x1.7e6ca013eefd6p-4, 0x1.753395aaa1176p-4, 0x1.6c06b73694a4cp-4,
    0x1.62e6124854d18p-4, 0x1.59d1b577466a4p-4, 0x1.50c9b06fa2baep-4,
    0x1.47ce1401b2213p-4, 0x1.3edef23269a86p-4, 0x1.35fc5e4d93e70p-4,
    0x1.2d266cf9b3111p-4, 0x1.245d344dd0d91p-4, 0x1.1ba0cbe97897dp-4,
    0x1.12f14d0f2179dp-4, 0x1.0a4ed2c159625p-4, 0x1.01b979e30e497p-4,
    0x1.f262c2b6c6e35p-5, 0x1.e16d547b25181p-5, 0x1.d092efeadf162p-5,
    0x1.bfd3e0f282a2cp-5, 0x1.af30790385f70p-5, 0x1.9ea90f9295563p-5,
    0x1.8e3e02a68b5abp-5, 0x1.7defb77af271ep-5, 0x1.6dbe9b398d064p-5,
    0x1.5dab23cf2add4p-5, 0x1.4db5d0e11275dp-5, 0x1.3ddf2ce98eecbp-5,
    0x1.2e27ce83df497p-5, 0x1.1e9059f1f6abcp-5, 0x1.0f1982e968011p-5,
    0x1.ff881d718a5c4p-6, 0x1.e121adb828c75p-6, 0x1.c301983cd091ap-6,
    0x1.a529f4e22ebf8p-6, 0x1.879d1b600c10ap-6, 0x1.6a5daf40bbf82p-6,
    0x1.4d6eaf2fbb064p-6, 0x1.30d388dab5e13p-6, 0x1.1490334603012p-6,
    0x1.f152a4f72dd49p-7, 0x1.ba48d274f8facp-7, 0x1.841040d8da478p-7,
    0x1.4eb96421acfe0p-7, 0x1.1a59229952f92p-7, 0x1.ce160f8ec6837p-8,
    0x1.69ea8d90cb85dp-8, 0x1.08a1f03b0b1fdp-8, 0x1.55f9f43c1b067p-9,
    0x1.4a605b6b9f70fp-10,
};

static inline double standard_normal(pcg128 *r)
{
    for (;;) {
        uint64_t u = next64(r);
        int idx = (int)(u & 0xff);
        u >>= 8;
        int sign = (int)(u & 0x1);
        uint64_t rabs = (u >> 1) & 0x000fffffffffffffULL;
        double x = rabs * wi_double[idx];
        if (sign)
            x = -x;
        if (rabs < ki_double[idx])
            return x; /* the rectangle: most draws */
        if (idx == 0) { /* the tail */
            double xx, yy;
            for (;;) {
                xx = -ziggurat_nor_inv_r * log1p(-next_double(r));
                yy = -log1p(-next_double(r));
                if (yy + yy > xx * xx)
                    return ((rabs >> 8) & 0x1) ? -(ziggurat_nor_r + xx) : ziggurat_nor_r + xx;
            }
        }
        if (((fi_double[idx - 1] - fi_double[idx]) * next_double(r) + fi_double[idx])
            < exp(-0.5 * x * x))
            return x; /* the wedge */
    }
}

void normal_fill(pcg64_state *st, int64_t n, double *out)
{
    pcg128 r = *st->pcg_state; /* a local copy stays in registers */
    for (int64_t i = 0; i < n; i++)
        out[i] = standard_normal(&r);
    *st->pcg_state = r;
}

void bounded_u16_fill(pcg64_state *st, uint32_t high, int64_t n, uint16_t *out)
{
    pcg128 r = *st->pcg_state;
    int has = st->has_uint32;   /* next_uint32's buffered upper half */
    uint32_t kept = st->uinteger;
    int bcnt = 0;               /* 16-bit halves left in buf (per call, as numpy) */
    uint32_t buf = 0;
    const uint16_t rng = (uint16_t)(high - 1);
#define NEXT32(v)                                                                    \
    do {                                                                             \
        if (has) {                                                                   \
            has = 0;                                                                 \
            v = kept;                                                                \
        } else {                                                                     \
            uint64_t nx = next64(&r);                                                \
            has = 1;                                                                 \
            kept = (uint32_t)(nx >> 32);                                             \
            v = (uint32_t)(nx & 0xffffffffULL);                                      \
        }                                                                            \
    } while (0)
#define NEXT16(v)                                                                    \
    do {                                                                             \
        if (!bcnt) {                                                                 \
            NEXT32(buf);                                                             \
            bcnt = 1;                                                                \
        } else {                                                                     \
            buf >>= 16;                                                              \
            bcnt -= 1;                                                               \
        }                                                                            \
        v = (uint16_t)buf;                                                           \
    } while (0)
    if (rng == 0xFFFF) { /* the whole range: raw 16-bit values */
        for (int64_t i = 0; i < n; i++) {
            uint16_t v;
            NEXT16(v);
            out[i] = v;
        }
    } else {
        const uint16_t excl = (uint16_t)(rng + 1);
        const uint16_t threshold = (uint16_t)((UINT16_MAX - rng) % excl);
        for (int64_t i = 0; i < n; i++) {
            uint16_t v;
            NEXT16(v);
            uint32_t m = (uint32_t)v * excl;
            while ((uint16_t)(m & 0xffff) < threshold) { /* rejected: below threshold */
                NEXT16(v);
                m = (uint32_t)v * excl;
            }
            out[i] = (uint16_t)(m >> 16);
        }
    }
#undef NEXT16
#undef NEXT32
    *st->pcg_state = r;
    st->has_uint32 = has;
    st->uinteger = kept;
}
