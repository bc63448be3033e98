class tricky::tabs (
	String	$a	=	"x",
	Integer $b = 2	# tab
) {
	include	tricky::after_tabs
}
